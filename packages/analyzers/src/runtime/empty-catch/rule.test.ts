import { AnalyzerTester } from '@codehealth/engine/testing';
import { runtime } from '../index.js';

new AnalyzerTester(runtime).run('empty-catch', {
  valid: [
    { code: 'try {\n  run();\n} catch (error) {\n  log(error);\n}', name: 'the error is handled' },
    { code: 'try {\n  run();\n} catch {\n  // Best effort: the cache is rebuilt on the next start.\n}', name: 'a comment explains the empty block' },
    { code: 'function f() {\n  try {\n    return parse();\n  } catch {\n    return undefined;\n  }\n}', name: 'an explicit fallback value' },
    { code: 'try {\n  run();\n} catch (ignored) {}', name: 'a binding named to say it is ignored' },
    { code: 'try {\n  run();\n} catch (_err) {}\ntry {\n  run();\n} catch (_) {}', name: 'underscore-prefixed bindings are unused on purpose' },
    { code: 'let recursive = true;\ntry {\n  recursive = isRecursive(schema);\n} catch {}', name: 'a default kept when the assignment fails' },
    { code: "let convert;\ntry {\n  convert = require('encoding').convert;\n} catch (e) {}\ntry {\n  require('source-map-support/register');\n} catch (e) {}", name: 'optional dependencies probed with require' },
    { code: 'save().catch((error) => report(error));', name: 'the rejection is handled' },
    { code: 'save().catch(() => {\n  // Offline: retried by the sync loop.\n});', name: 'a commented rejection handler' },
    { code: 'async function f() {\n  const real = await realpath(p).catch(() => undefined);\n  return real ?? p;\n}', name: 'a fallback value that the code checks' },
    { code: 'function f() {\n  return load().then(parse, () => undefined);\n}', name: 'a returned chain with a fallback' },
    { code: 'async function f() {\n  const pending = load();\n  pending.catch(() => {});\n  await prepare();\n  return await pending;\n}', name: 'silencing an early rejection of a promise awaited later' },
    { code: 'save().catch(() => null);', name: 'null is a deliberate replacement value' },
    { code: 'const text = "x.catch(() => {})";', name: 'inside a string' },
  ],
  invalid: [
    {
      code: 'export function load() {\n  try {\n    read();\n    parse();\n  } catch (error) {}\n}',
      name: 'an empty catch block',
      findings: [
        {
          line: 5,
          title: 'Empty catch (error) block swallows errors in load',
          severity: 'medium',
          symbol: 'load',
          data: { handler: 'catch-block', commented: false },
        },
      ],
    },
    {
      code: 'try {\n  run();\n} catch {}\ntry {\n  value = await load();\n  ready = true;\n} catch (e) {}',
      name: 'optional binding at module level; more than one assignment is not a fallback probe',
      findings: [
        { line: 3, title: 'Empty catch block swallows errors in example.ts' },
        { line: 7, title: 'Empty catch (e) block swallows errors in example.ts' },
      ],
    },
    {
      code: 'function f() {\n  try {\n    run();\n  } catch (e) {\n    return;\n  }\n  next();\n}',
      name: 'a catch that only returns: low',
      findings: [{ line: 4, endLine: 6, title: 'Empty catch (e) block swallows errors in f', severity: 'low' }],
    },
    {
      code: 'try {\n  run();\n} catch {\n  // ignore\n}',
      options: { allowComments: false },
      name: 'commented blocks are reported as info when comments are not accepted',
      findings: [{ line: 3, endLine: 5, severity: 'info', data: { commented: true } }],
    },
    {
      code: 'function f() {\n  save().catch(() => {});\n  load().catch(function () {});\n  ping().then(ok, () => undefined);\n  sync().catch(noop);\n  void send().catch(() => void 0);\n}',
      name: 'empty promise rejection handlers whose chain value is dropped',
      findings: [
        { line: 2, title: 'Promise rejection swallowed by .catch(() => {}) in f', symbol: 'f', data: { handler: 'catch' } },
        { line: 3, title: 'Promise rejection swallowed by .catch(function () {}) in f' },
        { line: 4, title: 'Promise rejection swallowed by .then(…, () => undefined) in f', data: { handler: 'then' } },
        { line: 5, title: 'Promise rejection swallowed by .catch(noop) in f' },
        { line: 6, title: 'Promise rejection swallowed by .catch(() => void 0) in f' },
      ],
    },
    {
      code: 'async function f() {\n  await save().catch(() => {});\n}',
      name: 'awaited but the value is discarded',
      findings: [{ line: 2, title: 'Promise rejection swallowed by .catch(() => {}) in f' }],
    },
  ],
});
