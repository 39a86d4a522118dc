// Test libraries known by their module names and APIs: which imported bindings assert, and which
// imports and calls mean a test file uses test doubles (mocks, stubs, spies, fake servers).
import type { CalleeText } from './test-calls.js';

/** Modules whose every export asserts (`import { strictEqual } from 'node:assert'`). */
const ASSERTION_MODULES: ReadonlySet<string> = new Set([
  'assert',
  'assert/strict',
  'node:assert',
  'node:assert/strict',
  'power-assert',
  'uvu/assert',
  'expect',
  'tsd',
  'expect-type',
  'should',
]);
/** Modules that export assertions among other things: only these names assert. */
const ASSERTION_EXPORTS: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries({
    vitest: ['expect', 'assert', 'expectTypeOf', 'assertType', 'should'],
    '@jest/globals': ['expect'],
    chai: ['expect', 'assert', 'should'],
    sinon: ['assert'],
    '@playwright/test': ['expect'],
    // type-plus: `isType.equal<true, A, B>()`, checked by the compiler.
    'type-plus': ['isType', 'testType', 'assertType'],
  }),
);

/** Importing one of these means the file uses test doubles. */
const MOCK_MODULES: ReadonlySet<string> = new Set([
  'sinon',
  'nock',
  'msw',
  'msw/node',
  'msw/browser',
  'testdouble',
  'ts-mockito',
  '@typestrong/ts-mockito',
  'jest-mock-extended',
  'vitest-mock-extended',
  'jest-mock',
  'fetch-mock',
  'jest-fetch-mock',
  'vitest-fetch-mock',
  'axios-mock-adapter',
  'mock-fs',
  'proxyquire',
  'rewire',
  '@golevelup/ts-jest',
  'node-mocks-http',
  'aws-sdk-client-mock',
]);
/** `import { mock } from 'node:test'` and the like: named exports that are the doubles API. */
const MOCK_EXPORTS: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries({
    'node:test': ['mock'],
    bun: ['mock', 'spyOn'],
    'bun:test': ['mock', 'spyOn'],
  }),
);
/**
 * Members of the framework objects that create or install doubles. Fake clocks (`vi.useFakeTimers`,
 * `mockdate`) replace time, not a collaborator, and are left out.
 */
const MOCK_MEMBERS: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  Object.entries({
    vi: new Set(['mock', 'doMock', 'fn', 'spyOn', 'stubGlobal', 'stubEnv', 'mocked', 'importMock', 'hoisted']),
    jest: new Set(['mock', 'doMock', 'fn', 'spyOn', 'createMockFromModule', 'unstable_mockModule', 'mocked', 'replaceProperty']),
    jasmine: new Set(['createSpy', 'createSpyObj']),
    sinon: new Set(['stub', 'spy', 'mock', 'fake', 'createStubInstance', 'replace', 'createSandbox']),
    td: new Set(['func', 'object', 'constructor', 'replace', 'replaceEsm', 'imitate']),
    mock: new Set(['fn', 'method', 'getter', 'setter', 'module']),
  }),
);
/** Global functions of Jasmine and Jest, and constructors of fake servers, that make doubles. */
const MOCK_FUNCTIONS: ReadonlySet<string> = new Set(['spyOn', 'nock', 'setupServer', 'setupWorker', 'fetchMock']);

export function isAssertionModule(specifier: string): boolean {
  return ASSERTION_MODULES.has(specifier);
}

/** Whether the binding `imported` of `specifier` asserts (`default` and `*` for whole modules). */
export function isAssertionImport(specifier: string, imported: string): boolean {
  if (ASSERTION_MODULES.has(specifier)) return true;
  return ASSERTION_EXPORTS.get(specifier)?.includes(imported) ?? false;
}

/** A label for the doubles library an import brings in, or undefined. */
export function mockImportLabel(specifier: string, imported: string): string | undefined {
  if (MOCK_MODULES.has(specifier)) return specifier;
  return MOCK_EXPORTS.get(specifier)?.includes(imported) ? `${specifier} ${imported}` : undefined;
}

/** A label for a call that creates or installs a double (`vi.fn`, `jest.mock`, `nock`), or undefined. */
export function mockCallLabel(callee: CalleeText): string | undefined {
  if (callee.identifier !== undefined) return MOCK_FUNCTIONS.has(callee.identifier) ? callee.identifier : undefined;
  const match = /^([\w$]+)\s*\.\s*([\w$]+)/.exec(callee.text);
  return match && MOCK_MEMBERS.get(match[1])?.has(match[2]) ? `${match[1]}.${match[2]}` : undefined;
}
