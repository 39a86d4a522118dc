import { AnalyzerTester } from '@codehealth/engine/testing';
import { runtime } from '../index.js';

new AnalyzerTester(runtime).run('throw-non-error', {
  valid: [
    {
      code: "function abort() {\n  // eslint-disable-next-line no-throw-literal\n  throw { name: 'AbortError', message: 'Aborted' };\n}",
      name: 'a lint suppression says the plain object is thrown on purpose (serialisable errors)',
    },
    {
      code: "async function copyAll(paths) {\n  const results = await Promise.allSettled(paths.map((p) => copy(p).catch((error) => {\n    throw [p, error];\n  })));\n  return results.filter((r) => r.status === 'rejected').map((r) => r.reason);\n}",
      name: 'a value carried to Promise.allSettled as data',
    },
    'throw new Error("bad input");',
    { code: 'class HttpError extends Error {}\nthrow new HttpError(404);', name: 'an Error subclass' },
    { code: 'try {\n  run();\n} catch (error) {\n  throw error;\n}', name: 'rethrowing the caught value' },
    { code: 'throw createError("x");', name: 'a factory call may return an Error' },
    { code: 'function f(err) {\n  throw err;\n}', name: 'a parameter is unknown' },
    { code: 'let message = "x";\nmessage = new Error("y");\nthrow message;', name: 'a let binding may have been replaced' },
    { code: 'throw Object.assign(new Error("x"), { code: 1 });', name: 'an Error with extra fields' },
  ],
  invalid: [
    {
      code: "function abort() {\n  // the request was aborted\n  throw { name: 'AbortError', message: 'Aborted' };\n}",
      name: 'a comment that is not a lint suppression',
      findings: [{ line: 3 }],
    },
    {
      code: 'export function parse(input) {\n  if (!input) throw "input is required";\n}',
      name: 'a string literal',
      findings: [{ line: 2, title: 'Throws a string instead of an Error in parse', severity: 'medium', symbol: 'parse', data: { thrown: 'a string' } }],
    },
    {
      code: 'throw `bad ${x}`;\nthrow "bad " + x;\nthrow 42;\nthrow false;\nthrow null;\nthrow undefined;\nthrow [1];',
      name: 'templates, concatenation, numbers, booleans, null, undefined, arrays',
      findings: [
        { line: 1, data: { thrown: 'a string' } },
        { line: 2, data: { thrown: 'a string' } },
        { line: 3, data: { thrown: 'a number' } },
        { line: 4, data: { thrown: 'a boolean' } },
        { line: 5, data: { thrown: 'null' } },
        { line: 6, data: { thrown: 'undefined' } },
        { line: 7, data: { thrown: 'an array' } },
      ],
    },
    {
      code: 'function fail(status) {\n  throw { status, message: "failed" };\n}',
      name: 'an object literal',
      findings: [{ line: 2, title: 'Throws an object literal instead of an Error in fail' }],
    },
    {
      code: 'function check() {\n  const reason = "not ready";\n  throw reason;\n}\ntry {\n  run();\n} catch (error) {\n  throw error.message;\n}\nthrow String(code);',
      name: 'a const bound to a literal, an error message, String()',
      findings: [
        { line: 3, data: { thrown: 'a string' } },
        { line: 8, data: { thrown: 'an error message string' } },
        { line: 10, data: { thrown: 'a string' } },
      ],
    },
  ],
});
