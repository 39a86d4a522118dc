import { AnalyzerTester } from '@codehealth/engine/testing';
import { runtime } from '../index.js';

new AnalyzerTester(runtime).run('unreachable-code', {
  valid: [
    { code: 'function f(a) {\n  if (a) return 1;\n  return 2;\n}', name: 'a return inside an if without braces' },
    { code: 'function f(a) {\n  if (a) {\n    return 1;\n  }\n  next();\n}', name: 'an if without else' },
    { code: 'function f() {\n  return g();\n  function g() {\n    return 1;\n  }\n}', name: 'a hoisted function declaration after return' },
    {
      code: 'function f() {\n  return 1;\n  type T = string;\n  interface I {}\n  var later;\n  ;\n}',
      name: 'types, var without initializer and empty statements',
    },
    { code: 'function f() {\n  return 1;\n  // trailing note\n}', name: 'a comment' },
    { code: 'switch (x) {\n  case 1:\n    run();\n    break;\n  case 2:\n    return;\n  default:\n    other();\n}', name: 'case labels start new lists' },
    { code: 'for (const x of xs) {\n  switch (x) {\n    case 1:\n      break;\n  }\n  use(x);\n}', name: 'a break inside a nested switch' },
    { code: 'function f() {\n  try {\n    return risky();\n  } catch {\n    log();\n  }\n  return fallback();\n}', name: 'a catch that falls through' },
    { code: 'function f() {\n  outer: {\n    if (a) break outer;\n    else return;\n  }\n  after();\n}', name: 'a labeled block is not followed' },
    { code: 'function f() {\n  process.exit(1);\n  cleanup();\n}', name: 'process.exit is not known to exit' },
  ],
  invalid: [
    {
      code: 'export function save(user) {\n  return store.put(user);\n  audit.log(user);\n  notify(user);\n}',
      name: 'statements after return',
      findings: [
        {
          line: 3,
          endLine: 4,
          title: 'Unreachable code after return in save',
          severity: 'medium',
          symbol: 'save',
          data: { exit: 'return', statements: 2 },
        },
      ],
    },
    {
      code: 'function f(xs) {\n  for (const x of xs) {\n    continue;\n    use(x);\n  }\n  while (true) {\n    break;\n    tick();\n  }\n  throw new Error("x");\n  done();\n}',
      name: 'after continue, break and throw',
      findings: [
        { line: 4, data: { exit: 'continue', statements: 1 } },
        { line: 8, data: { exit: 'break' } },
        { line: 11, title: 'Unreachable code after throw in f' },
      ],
    },
    {
      code: 'switch (kind) {\n  case "a":\n    return one();\n    break;\n  default:\n    return two();\n}',
      name: 'a leftover break after return is low severity',
      findings: [{ line: 4, severity: 'low', title: 'Unreachable code after return in example.ts' }],
    },
    {
      code: 'function f(a) {\n  if (a) {\n    return 1;\n  } else if (b) {\n    throw new Error("b");\n  } else {\n    return 3;\n  }\n  cleanup();\n}',
      name: 'after an if/else chain whose every branch exits',
      findings: [{ line: 9, title: 'Unreachable code after an if/else that always exits in f', data: { exit: 'if/else' } }],
    },
    {
      code: 'function f() {\n  try {\n    return compute();\n  } finally {\n    release();\n  }\n  log();\n}',
      name: 'after a try whose body exits and has no catch',
      findings: [{ line: 7, title: 'Unreachable code after a try that always exits in f', data: { exit: 'try' } }],
    },
    {
      code: 'function f() {\n  return 1;\n  return 2;\n  x();\n}',
      name: 'one finding per block, from the first exit',
      findings: [{ line: 3, endLine: 4, data: { statements: 2 } }],
    },
    {
      code: 'function f() {\n  return;\n  class Late {}\n  const x = 1;\n}',
      name: 'classes and initialised declarations are not hoisted',
      findings: [{ line: 3, endLine: 4 }],
    },
  ],
});
