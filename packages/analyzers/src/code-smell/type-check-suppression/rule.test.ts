import { AnalyzerTester } from '@codehealth/engine/testing';
import { codeSmell } from '../index.js';

new AnalyzerTester(codeSmell).run('type-check-suppression', {
  valid: [
    'export const a = 1;',
    { code: '// @ts-expect-error: the d.ts of lib omits the overload\nfoo(1, 2);', name: 'expect-error with a reason after a colon' },
    { code: '// @ts-expect-error the d.ts of lib omits the overload\nfoo(1, 2);', name: 'expect-error with a reason after a space' },
    { code: '// @ts-ignore -- Bun is a global only under bun\nconst f = Bun.file(p);', name: 'ts-ignore with a reason (default: not reported)' },
    { code: '/* @ts-ignore only errors with TypeScript 4 */\nfoo();', name: 'block comment with a reason' },
    {
      code: "// window is not in this package's lib: the code also runs on Node\n// @ts-ignore\nconst w = window;",
      name: 'the reason in the comment line right above',
    },
    {
      code: '// the upstream types forget the second argument\n// eslint-disable-next-line @typescript-eslint/ban-ts-comment\n// @ts-ignore\nfoo(1, 2);',
      name: 'the reason above, across a lint directive',
    },
    {
      code: '// eslint-disable-next-line @typescript-eslint/ban-ts-comment\n// @ts-ignore\nconst f = Bun.file(p);',
      name: 'a suppression acknowledged by disabling ban-ts-comment by name',
    },
    {
      code: '// @ts-expect-error\n// the getters track access: reading them all would subscribe to everything\nout[key] = value[key];',
      name: 'the reason in the comment lines right below (TypeScript skips them)',
    },
    {
      code: '// @ts-ignore\nconst file = Bun.file(path);\n// @ts-ignore\nif (typeof navigator !== "undefined" && navigator.userAgent) x();\n// @ts-ignore\nconst decoded = JSON.parse(atob(base64));\n// @ts-ignore\nif (input instanceof File) y();',
      name: 'over a global that only some runtimes or libs declare, the suppression says why by itself',
    },
    {
      code: 'const error = new ApiError(message);\n// @ts-ignore\nerror.cause = cause;\n// @ts-ignore\nconst own = Object.hasOwn(o, k);',
      name: 'over a member that newer libs add (Error.cause, Object.hasOwn)',
    },
    {
      code: 'function spec(name: Id) {\n  if (semver.satisfies(ts.version, ">= 4.5"))\n    // @ts-ignore\n    return factory.createImportSpecifier(false, undefined, name);\n  // @ts-ignore\n  return factory.createImportSpecifier(undefined, name);\n}',
      name: 'in the branches of a version test, which type-check under different versions',
    },
    { code: '// @ts-ignore\nfoo();', filename: 'src/types.test.ts', name: 'quiet in tests' },
    { code: '// @ts-expect-error\nfoo();', filename: 'examples/basic/src/main.ts', name: 'quiet in examples' },
    { code: 'export const a = 1;\n// @ts-nocheck\nexport const b = 2;', name: '@ts-nocheck after the first statement does nothing' },
    { code: '// @ts-nocheck\nexport const a = 1;', filename: 'src/a.js', name: '@ts-nocheck in JavaScript opts out of checkJs only' },
    { code: 'const s = "// @ts-ignore";\n// mentions @ts-ignore in prose\nfoo();', name: 'a directive in a string or in prose is none' },
  ],
  invalid: [
    {
      code: 'export function f(state: S) {\n  // @ts-ignore\n  state.copy![prop] = value;\n}',
      findings: [{ line: 2, severity: 'info', title: '`@ts-ignore` without a reason', data: { directive: 'ts-ignore', explained: false } }],
    },
    {
      code: 'export function f(cb: F) {\n  // @ts-expect-error\n  return cb(...args);\n}',
      findings: [{ line: 2, severity: 'info', title: '`@ts-expect-error` without a reason' }],
    },
    {
      name: 'trailing code on the line above is no reason; punctuation is no reason',
      code: 'foo(); // call foo\n// @ts-ignore:\nbar();\n/* @ts-expect-error */\nbaz();',
      findings: [
        { line: 2, severity: 'info' },
        { line: 4, severity: 'info' },
      ],
    },
    {
      name: 'a member or a local named like a global is no global; a comment below that is a directive explains nothing; a version test far above is no reason',
      code: '// @ts-ignore\nstate.window = config.File;\n// @ts-expect-error\n// eslint-disable-next-line no-console\nconsole.log(myURL);\nconst v = pkg.version;\na();\nb();\nc();\n// @ts-ignore\nd.causes = 1;',
      findings: [
        { line: 1, severity: 'info' },
        { line: 3, severity: 'info' },
        { line: 10, severity: 'info' },
      ],
    },
    {
      name: 'a disable of another rule above acknowledges nothing',
      code: '// eslint-disable-next-line no-console\n// @ts-ignore\nconsole.log(x.y);',
      findings: [{ line: 2, severity: 'info' }],
    },
    {
      name: 'TypeScript reads @ts-ignore-error as @ts-ignore',
      code: '// @ts-ignore-error\nfoo();',
      findings: [{ line: 1, title: '`@ts-ignore` without a reason' }],
    },
    {
      name: '@ts-nocheck at the top of a TypeScript file',
      code: '// @ts-nocheck\nexport const a: number = "x";',
      findings: [{ line: 1, severity: 'low', title: '`@ts-nocheck` turns type checking off for the whole file' }],
    },
    {
      name: 'reportDescribedIgnore: a described @ts-ignore at info',
      code: '// @ts-ignore the types are wrong\nfoo();',
      options: { reportDescribedIgnore: true },
      findings: [{ line: 1, severity: 'info', titleIncludes: 'would report when it is no longer needed' }],
    },
  ],
});
