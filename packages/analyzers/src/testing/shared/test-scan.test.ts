import { describe, expect, it } from 'vitest';
import { analyzeFileSource, type FileKind } from '@codehealth/engine';
import { testing } from '../index.js';
import { testFactsCollector } from './test-file-collector.js';
import { testFactsOf, type TestFileFacts } from './test-facts.js';

function scan(code: string, path = 'src/a.test.ts', kind: FileKind = 'test'): TestFileFacts | undefined {
  const ruleSet = {
    analyzers: [testing],
    fileRules: [],
    repositoryRules: [],
    collectors: [{ analyzerId: 'testing', collector: testFactsCollector }],
    fingerprint: 'test',
  };
  const summary = analyzeFileSource({ path, language: 'typescript', kind, sizeBytes: code.length }, code, ruleSet);
  return testFactsOf(summary);
}

const counts = (facts: TestFileFacts | undefined) => facts?.tests.map((t) => [t.name, t.assertions, t.exempt ?? null]);

describe('test facts collector: test cases and assertions', () => {
  it('counts each assertion once, in every common style', () => {
    const facts = scan(`
      import { strictEqual } from 'node:assert';
      import { test as avaTest } from 'vitest';
      it('jest', () => { expect(a).toBe(1); expect(b).not.toEqual(2); expect.assertions(2); });
      it('chai', () => { expect(a).to.deep.equal(1); assert.equal(a, 1); chai.assert.ok(b); a.should.equal(1); a.should.have.property('x').that.equals(1); });
      it('node assert', () => { strictEqual(a, 1); });
      it('rejects', async () => { await expect(p).rejects.toThrow('x'); });
      it('marbles', () => { scheduler.run(({ expectObservable }) => { expectObservable(a).toBe('-a'); }); });
      it('sinon', () => { sinon.assert.calledOnce(spy); verify(mock.x()).once(); });
      test('ava', (t) => { t.is(a, 1); t.deepEqual(b, 2); t.log('not an assertion'); });
      it('types', () => { const x: number = f(); // $ExpectType number
        // @ts-expect-error
        g(1);
      });
      it('none', () => { run(); const expected = 1; });
    `);
    expect(counts(facts)).toEqual([
      ['jest', 3, null],
      ['chai', 5, null],
      ['node assert', 1, null],
      ['rejects', 1, null],
      ['marbles', 1, null],
      ['sinon', 2, null],
      ['ava', 2, null],
      ['types', 2, null],
      ['none', 0, null],
    ]);
  });

  it('names tests after their suites and leaves out skipped and pending tests', () => {
    const facts = scan(`
      describe('math', () => {
        describe('add', () => {
          it('adds', () => { expect(1).toBe(1); });
          it.skip('skipped', () => {});
          xit('x-skipped', () => {});
          it.todo('later');
          it('pending');
        });
        describe.skip('off', () => { it('inside a skipped suite', () => {}); });
        it.each([1, 2])('each %s', (n) => { expect(n).toBeGreaterThan(0); });
        test.each\`a\n\${1}\`('template each', ({ a }) => { expect(a).toBe(1); });
        it.only('focused', () => { expect(1).toBe(1); });
      });
    `);
    expect(facts?.tests.map((t) => [t.name, t.line])).toEqual([
      ['math > add > adds', 4],
      ['math > each %s', 11],
      ['math > template each', 12],
      ['math > focused', 14],
    ]);
  });

  it('exempts done-style callbacks and tests under a suite whose hook asserts', () => {
    const facts = scan(`
      it('done', (done) => { source.subscribe({ complete: done }); });
      it('callback by use', (finished) => { source.subscribe(finished); });
      it('context used as a value', (t) => { helper(t); });
      it('context used for non-assertions', (t) => { t.log('x'); });
      describe('checked after each', () => {
        afterEach(() => { expect(console.error).not.toHaveBeenCalled(); });
        it('smoke', () => { run(); });
      });
      describe('hook without assertion', () => {
        beforeEach(() => { setup(); });
        it('smoke too', () => { run(); });
      });
    `);
    expect(counts(facts)).toEqual([
      ['done', 0, 'callback'],
      ['callback by use', 0, 'callback'],
      ['context used as a value', 0, 'callback'],
      ['context used for non-assertions', 0, null],
      ['checked after each > smoke', 0, 'hook'],
      ['hook without assertion > smoke too', 0, null],
    ]);
  });

  it('credits calls to local helpers that assert, declared anywhere, also through other helpers', () => {
    const facts = scan(`
      import { runCase } from './helpers.js';
      import * as h from './more-helpers.js';
      it('direct helper', () => { check(1); });
      it('helper of helper', () => { outer(2); });
      it('imported helper', () => { runCase(3); h.compare(1, 2); });
      it('helper that does not assert', () => { build(); });
      function check(n) { items.forEach((item) => expect(item).toBe(n)); }
      const outer = (n) => check(n);
      function build() { return 1; }
    `);
    expect(counts(facts)).toEqual([
      ['direct helper', 1, null],
      ['helper of helper', 1, null],
      ['imported helper', 0, null],
      ['helper that does not assert', 0, null],
    ]);
    expect(facts?.tests[2].calls).toEqual(['runCase', 'h.compare']);
    // build neither asserts nor calls anything: it cannot lead to an assertion.
    expect(facts?.tests[3].calls).toEqual([]);
    expect(facts?.imports).toEqual({ runCase: { specifier: './helpers.js', name: 'runCase' }, h: { specifier: './more-helpers.js', name: '*' } });
    expect(facts?.functions).toEqual({ check: { asserts: true, calls: [] }, outer: { asserts: true, calls: [] } });
  });

  it('does not credit a helper with assertions of a test registered inside it', () => {
    const facts = scan(`
      function behavesLikeAList(make) { it('has a length', () => { expect(make().length).toBe(0); }); }
      it('calls the registrar', () => { behavesLikeAList(() => []); });
    `);
    expect(counts(facts)).toEqual([
      ['has a length', 1, null],
      ['calls the registrar', 0, null],
    ]);
  });
});

describe('test facts collector: doubles and file selection', () => {
  it('records the doubles a test file uses, not fake clocks', () => {
    expect(
      scan(`import { vi } from 'vitest';\nvi.mock('./db.js');\nit('x', () => { const f = vi.fn(); vi.useFakeTimers(); expect(f).toHaveBeenCalled(); });`)
        ?.mocks,
    ).toEqual(['vi.fn', 'vi.mock']);
    expect(scan(`import sinon from 'sinon';\nimport nock from 'nock';\nit('x', () => { jest.spyOn(a, 'b'); expect(1).toBe(1); });`)?.mocks).toEqual([
      'jest.spyOn',
      'nock',
      'sinon',
    ]);
    expect(scan(`import { mock } from 'node:test';\nit('x', () => { expect(1).toBe(1); });`)?.mocks).toEqual(['node:test mock']);
    expect(scan(`it('x', () => { vi.useFakeTimers(); expect(1).toBe(1); });`)?.mocks).toEqual([]);
  });

  it('scans fixtures never, and source files only for asserting helpers when they use a test framework', () => {
    expect(scan(`it('x', () => {});`, 'src/fixtures/a.test.ts')).toBeUndefined();
    expect(scan(`export function f() { assert(x); }`, 'src/a.ts', 'source')).toBeUndefined();
    const helper = scan(
      `import { expect } from 'vitest';\nexport function expectValid(x) { expect(x).toBe(true); }\nexport function run(x) { return check(x); }\nfunction check(x) { expect(x).toBeDefined(); }\nit('registered', () => {});`,
      'src/testing/helpers.ts',
      'source',
    );
    expect(helper).toEqual({
      tests: [],
      mocks: [],
      functions: { expectValid: { asserts: true, calls: [] }, run: { asserts: true, calls: [] }, check: { asserts: true, calls: [] } },
      imports: {},
    });
  });
});
