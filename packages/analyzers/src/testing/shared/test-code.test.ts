import type { FileSummary } from '@codehealth/engine';
import { describe, expect, it } from 'vitest';
import { random } from '../../duplication/fixtures/random.js';
import { exportedFunctionNames } from './test-code.js';

/** The definition: per export, the first variable symbol of its name and any function of its name starting inside it. */
function reference(summary: FileSummary): string[] {
  const names: string[] = [];
  for (const record of summary.module.exports) {
    if (record.from !== undefined || record.typeOnly) continue;
    if (record.kind === 'function') {
      names.push(record.name);
      continue;
    }
    if (record.kind !== 'variable') continue;
    const symbol = summary.module.symbols.find((s) => s.name === record.name && s.kind === 'variable');
    if (!symbol) continue;
    if (summary.functions.some((fn) => fn.name === record.name && fn.lineStart >= symbol.lineStart && fn.lineStart <= symbol.lineEnd)) names.push(record.name);
  }
  return names;
}

function randomSummary(next: () => number): FileSummary {
  const name = () => `n${Math.floor(next() * 8)}`;
  const kinds = ['function', 'variable', 'class', 'type'] as const;
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const line = () => 1 + Math.floor(next() * 40);
  const exports = Array.from({ length: Math.floor(next() * 10) }, () => ({
    name: name(),
    kind: pick(kinds),
    line: line(),
    ...(next() < 0.15 ? { from: './other' } : {}),
    ...(next() < 0.1 ? { typeOnly: true } : {}),
  }));
  const symbols = Array.from({ length: Math.floor(next() * 10) }, () => {
    const lineStart = line();
    return { name: name(), kind: pick(kinds), lineStart, lineEnd: lineStart + Math.floor(next() * 6), exported: next() < 0.5 };
  });
  const functions = Array.from({ length: Math.floor(next() * 10) }, () => ({ name: name(), lineStart: line() }));
  return { path: 'src/m.ts', module: { imports: [], exports, symbols, commonJs: false }, functions } as unknown as FileSummary;
}

describe('exportedFunctionNames', () => {
  it('names what the per-export search names, on 3000 random modules (repeated names, several variables of a name)', () => {
    const next = random(7);
    for (let i = 0; i < 3000; i++) {
      const summary = randomSummary(next);
      expect(exportedFunctionNames(summary)).toEqual(reference(summary));
    }
  });

  it('answers a summary once (both testing rules ask)', () => {
    const summary = randomSummary(random(3));
    expect(exportedFunctionNames(summary)).toBe(exportedFunctionNames(summary));
  });
});
