import { AnalyzerTester } from '@codehealth/engine/testing';
import { codeSmell } from '../index.js';

new AnalyzerTester(codeSmell).run('too-many-parameters', {
  valid: [
    'function f(a, b, c, d, e) {}',
    {
      code: 'function perform(a, b, c, d, e, f, g, h) {}',
      filename: 'docs/assets/javascripts/react-with-addons.js',
      role: 'docs',
      name: 'a documentation site asset is not judged',
    },
    { code: 'function f({ a, b, c, d, e, f }: Options, g) {}', name: 'a destructured object counts as one' },
    { code: 'function f(this: Window, a, b, c, d, e) {}', name: 'a TypeScript this parameter does not count' },
    { code: 'const f = x => x;', options: { max: 1 } },
    { code: 'interface I { m(a, b, c, d, e, f): void }\ndeclare function g(a, b, c, d, e, f): void;', name: 'signatures without a body are not checked' },
    { code: 'function f([a, b, c, d, e, f]) {}', options: { max: 1 }, name: 'a destructured array counts as one' },
    {
      code:
        'class ShellComponent {\n  constructor(\n    private readonly http: HttpClient,\n    public router: Router,\n    readonly zone: NgZone,\n' +
        '    @Inject(DOCUMENT) document: Document,\n    private a: A,\n    protected b: B,\n  ) {}\n}',
      name: 'a constructor whose every parameter is a parameter property or injected by decorator: filled by a DI container, never called by hand',
    },
  ],
  invalid: [
    {
      code: 'function f(a, b, c, d, e, f) {}',
      findings: [{ line: 1, symbol: 'f', severity: 'info', title: 'f takes 6 parameters (max 5)', data: { parameters: 6, max: 5 } }],
    },
    {
      code: 'class Service {\n  constructor(\n    private a: A,\n    private b: B,\n    c?: C,\n    ...rest: D[]\n  ) {}\n}',
      options: { max: 3 },
      name: 'optional, rest and parameter properties count; the anchor is the parameter list',
      findings: [{ line: 2, endLine: 7, symbol: 'Service.constructor', data: { parameters: 4, max: 3 } }],
    },
    {
      code: 'items.map((a, b, c) => a);\nconst g = function (this: T, a, b, c) {};',
      options: { max: 2 },
      name: 'arrow functions and function expressions',
      findings: [
        { line: 1, symbol: 'map callback', data: { parameters: 3 } },
        { line: 2, symbol: 'g', data: { parameters: 3 } },
      ],
    },
    {
      code: 'function f(a, b, c, d, e) {}',
      options: { max: 2 },
      name: 'info above twice the limit too',
      findings: [{ line: 1, severity: 'info', data: { parameters: 5, max: 2 } }],
    },
  ],
});
