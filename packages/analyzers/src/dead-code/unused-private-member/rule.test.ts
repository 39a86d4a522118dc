import { AnalyzerTester } from '@codehealth/engine/testing';
import { deadCode } from '../index.js';

new AnalyzerTester(deadCode).run('unused-private-member', {
  valid: [
    { code: 'class A {\n  private x = 1;\n  get() { return this.x; }\n}', name: 'this.x' },
    { code: 'class A {\n  #x = 1;\n  get() { return this.#x; }\n}', name: 'this.#x' },
    { code: 'class A {\n  #x = 1;\n  static has(o: object) { return #x in o; }\n}', name: '#x in obj' },
    { code: 'class A {\n  private x = 1;\n  equals(other: A) { return other.x === 1; }\n}', name: 'another instance of the class' },
    { code: 'class A {\n  private x = 1;\n  read() { const { x } = this; return x; }\n}', name: 'destructuring from this' },
    { code: 'class A {\n  private x = 1;\n  read() { const { x: y } = this; return y; }\n}', name: 'destructuring with a rename' },
    { code: "class A {\n  private x = 1;\n  read() { return this['x']; }\n}", name: 'bracket access with a literal' },
    {
      code: 'class A {\n  private a = 1;\n  private b = 2;\n  read(k: string) { return (this as any)[k]; }\n  all(k: "a" | "b") { return this[k]; }\n}',
      name: 'computed access on this keeps TS-private members',
    },
    { code: 'class A {\n  constructor(private readonly dep: { run(): void }) {}\n  go() { this.dep.run(); }\n}', name: 'parameter property used' },
    { code: 'class A {\n  constructor(private dep: number) { console.log(dep); }\n}', name: 'parameter property used as a parameter' },
    { code: 'class A {\n  @Input() private x = 1;\n}', name: 'decorated members are skipped by default' },
    { code: 'class A {\n  private constructor() {}\n  static make() { return new A(); }\n}', name: 'private constructors' },
    { code: 'class A {\n  private get v() { return 1; }\n  private set v(n: number) {}\n  run() { return this.v; }\n}', name: 'getter and setter pair' },
    { code: 'class A {\n  private run(a: string): void;\n  private run(a: any) {}\n  go() { this.run("x"); }\n}', name: 'overloads' },
    { code: 'declare class A {\n  private x;\n}', name: 'ambient classes' },
    { code: 'class A {\n  private static count = 0;\n  static next() { return ++A.count; }\n}', name: 'static members through the class' },
    { code: 'class A {\n  protected x = 1;\n  public y = 2;\n  z = 3;\n}', name: 'non-private members' },
    { code: 'class A {\n  private x = 1;\n  run() { let { x: = this; }\n}', name: 'a class body with parse errors (the use of x is in an ERROR node)' },
    {
      code: "class RejectWithValue {\n  private readonly _type!: 'RejectWithValue';\n  constructor(public payload: unknown) {}\n}",
      name: 'a declared-only brand property (definite assignment, no value)',
    },
  ],
  invalid: [
    {
      code: "class Brandless {\n  private _type: 'x' = 'x';\n  run() { return 1; }\n}",
      name: 'a private field with a value nothing reads is not a brand',
      findings: [{ line: 2, title: 'Unused private property Brandless._type' }],
    },
    {
      code: 'class Cache {\n  private hits = 0;\n  #misses = 0;\n  private evict() {}\n  get() { return 1; }\n}',
      findings: [
        { line: 2, title: 'Unused private property Cache.hits', severity: 'low', symbol: 'Cache.hits', data: { member: 'hits', kind: 'property' } },
        { line: 3, title: 'Unused private property Cache.#misses', severity: 'low', symbol: 'Cache.#misses' },
        { line: 4, endLine: 4, title: 'Unused private method Cache.evict', severity: 'medium' },
      ],
    },
    {
      code: 'class A {\n  private x = 1;\n  build() { return { x: 2 }; }\n  other(o: { x: number }) { return o; }\n}',
      name: 'an object literal key or a type member of the same name is not a use',
      findings: [{ line: 2, title: 'Unused private property A.x' }],
    },
    {
      code: 'class Service {\n  constructor(private readonly http: Client, private log: Logger) {}\n  run() { this.log.info(); }\n}',
      name: 'unused parameter property',
      findings: [{ line: 2, title: 'Unused private parameter property Service.http', severity: 'low' }],
    },
    {
      code: 'class A {\n  private get v() { return 1; }\n  #helper() {}\n  private recurse(): void { this.recurse(); }\n}',
      name: 'accessors, #methods, and self-recursion only',
      findings: [
        { line: 2, title: 'Unused private accessor A.v', severity: 'medium' },
        { line: 3, title: 'Unused private method A.#helper' },
      ],
    },
    {
      code: 'class A {\n  @Input() private x = 1;\n}',
      options: { ignoreDecorated: false },
      name: 'decorated members with ignoreDecorated false',
      findings: [{ line: 2, title: 'Unused private property A.x' }],
    },
    {
      code: 'const B = class {\n  private unused = 1;\n};',
      name: 'class expressions',
      findings: [{ line: 2, title: 'Unused private property (anonymous class).unused' }],
    },
  ],
});
