import { describe, expect, it } from 'vitest';
import { isMeaningful, lintDirectiveOf, tsDirectiveOf } from './directives.js';

describe('tsDirectiveOf', () => {
  it('reads the directives TypeScript honours, with their description', () => {
    expect(tsDirectiveOf('// @ts-ignore')).toEqual({ kind: 'ts-ignore', description: '' });
    expect(tsDirectiveOf('//@ts-expect-error: wrong overload')).toEqual({ kind: 'ts-expect-error', description: 'wrong overload' });
    expect(tsDirectiveOf('/// @ts-ignore - reason')).toEqual({ kind: 'ts-ignore', description: 'reason' });
    expect(tsDirectiveOf('/** @ts-ignore For users with undici */')).toEqual({ kind: 'ts-ignore', description: 'For users with undici' });
    expect(tsDirectiveOf('/*\n * something\n * @ts-expect-error */')).toEqual({ kind: 'ts-expect-error', description: '' });
    expect(tsDirectiveOf('// @ts-ignore-error this requires es2021')).toEqual({ kind: 'ts-ignore', description: 'this requires es2021' });
    expect(tsDirectiveOf('// @ts-nocheck')).toEqual({ kind: 'ts-nocheck', description: '' });
  });

  it('finds none in prose, on a block comment line other than the last, or in @ts-nocheck-like words', () => {
    expect(tsDirectiveOf('// we used @ts-ignore here once')).toBeUndefined();
    expect(tsDirectiveOf('/* @ts-ignore\n * but more text */')).toBeUndefined();
    expect(tsDirectiveOf('// @ts-nocheckers')).toBeUndefined();
    expect(tsDirectiveOf('/* @ts-nocheck */')).toBeUndefined();
  });
});

describe('lintDirectiveOf', () => {
  it('reads rules and reason', () => {
    expect(lintDirectiveOf('/* eslint-disable */')).toEqual({ kind: 'eslint-disable', rules: [], reason: '' });
    expect(lintDirectiveOf('/* eslint-disable no-console, no-alert -- CLI */')).toEqual({
      kind: 'eslint-disable',
      rules: ['no-console', 'no-alert'],
      reason: 'CLI',
    });
    expect(lintDirectiveOf('// eslint-disable-next-line -- legacy')).toEqual({ kind: 'eslint-disable-next-line', rules: [], reason: 'legacy' });
    expect(lintDirectiveOf('//eslint-disable-line @typescript-eslint/no-explicit-any')).toEqual({
      kind: 'eslint-disable-line',
      rules: ['@typescript-eslint/no-explicit-any'],
      reason: '',
    });
  });

  it('ignores what ESLint ignores: a line comment eslint-disable, prose, eslint-enable', () => {
    expect(lintDirectiveOf('// eslint-disable')).toBeUndefined();
    expect(lintDirectiveOf('// why we eslint-disable-next-line here')).toBeUndefined();
    expect(lintDirectiveOf('/* eslint-enable */')).toBeUndefined();
    expect(lintDirectiveOf('/* eslint-disabled */')).toBeUndefined();
  });
});

describe('isMeaningful', () => {
  it('needs three letters or digits', () => {
    expect(isMeaningful('')).toBe(false);
    expect(isMeaningful(':-)')).toBe(false);
    expect(isMeaningful('TS6133')).toBe(true);
  });
});
