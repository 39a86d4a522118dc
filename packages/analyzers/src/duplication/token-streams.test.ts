// The compared files: checked when collected, decoded only when their tokens are first read.
import type { FileSummary } from '@codehealth/engine';
import { describe, expect, it } from 'vitest';
import { decodeTokenFact, TOKEN_FACT_KEY, type TokenFact } from './token-fact.js';
import { collectFiles, effectiveTokens, TokenFactError } from './token-streams.js';
import { tokenSummaryOf as summaryOf } from './fixtures/mini-repo.js';

const withFact = (summary: FileSummary, fact: unknown): FileSummary => ({ ...summary, facts: { ...summary.facts, [TOKEN_FACT_KEY]: fact } });
const OPTIONS = { mode: 'weak', ignoreImports: true, ignoreTests: true } as const;

describe('collectFiles', () => {
  it("gives each file's compared tokens as decoding its fact does, sorted by path", () => {
    const b = summaryOf('src/b.ts', "import { x } from './x';\n// note\nexport const b = x + 1;\n");
    const a = summaryOf('src/a.ts', 'export function a(n: number) {\n  return n * 2; // twice\n}\n');
    const { files, withoutTokens } = collectFiles([b, a], OPTIONS);
    expect(withoutTokens).toBe(0);
    expect(files.map((f) => f.summary.path)).toEqual(['src/a.ts', 'src/b.ts']);
    for (const [file, summary] of [
      [files[0], a],
      [files[1], b],
    ] as const) {
      const fact = summary.facts[TOKEN_FACT_KEY] as TokenFact;
      const eager = effectiveTokens(summary, decodeTokenFact(fact)!, OPTIONS);
      expect(file.tokenCount).toBe(fact.count);
      expect([...file.hashes]).toEqual([...eager.hashes]);
      expect([...file.exact]).toEqual([...eager.exact]);
      expect([...file.original]).toEqual([...eager.original]);
      expect([...file.stream.rows]).toEqual([...eager.stream.rows]);
    }
    // Imports and comments are not compared: fewer tokens than stored.
    expect(files[1].hashes.length).toBeLessThan(files[1].tokenCount);
  });

  it('counts files whose fact has the wrong shape, and decodes a fact only when its tokens are read', () => {
    const good = summaryOf('src/good.ts', 'export const good = [1, 2, 3].map((n) => n + 1);\n');
    const fact = good.facts[TOKEN_FACT_KEY] as TokenFact;
    const short = withFact(summaryOf('src/short.ts', 'const s = 1;\n'), { ...fact, count: fact.count + 1 });
    const missing = withFact(summaryOf('src/missing.ts', 'const m = 1;\n'), { ...fact, rows: undefined });
    // Same length, so the shape check passes, but '*' is not base64: only decoding finds out.
    const damaged = withFact(summaryOf('src/damaged.ts', 'const d = 1;\n'), { ...fact, hashes: `**${fact.hashes.slice(2)}` });
    const { files, withoutTokens } = collectFiles([good, short, missing, damaged], OPTIONS);
    expect(withoutTokens).toBe(2);
    expect(files.map((f) => f.summary.path)).toEqual(['src/damaged.ts', 'src/good.ts']);
    expect(files[0].tokenCount).toBe(fact.count);
    expect(() => files[0].hashes).toThrow(TokenFactError);
    expect(files[1].hashes.length).toBe(fact.count);
  });
});
