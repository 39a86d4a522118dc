// An analyzer that declares `readsGraph: false` runs first in the rules worker, which then builds
// no graph for it: its repository rules must not read `context.graph` (a rule that did would still
// work, the worker building the graph then, but the declaration would be false).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import plugin from './index.js';

const src = fileURLToPath(new URL('.', import.meta.url));

/** The analyzer's production modules that mention the graph (`graph` as a word, or `CodeGraph`). */
function graphMentions(analyzerId: string): string[] {
  const dir = join(src, analyzerId);
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((p) => p.endsWith('.ts') && !p.endsWith('.test.ts') && !p.split('/').includes('fixtures'))
    .filter((p) => /\bgraph\b|CodeGraph/.test(readFileSync(join(dir, p), 'utf8')));
}

describe('readsGraph', () => {
  const graphFree = plugin.analyzers.filter((a) => a.readsGraph === false).map((a) => a.id);

  it('is declared only by analyzers whose code never mentions the graph', () => {
    expect(graphFree).toEqual(['duplication', 'consistency', 'compliance', 'sarif-import']);
    for (const id of graphFree) expect(graphMentions(id), id).toEqual([]);
  });

  it('would catch an analyzer that reads it', () => {
    expect(graphMentions('dead-code').length).toBeGreaterThan(0);
    expect(graphMentions('code-smell')).toContain('god-module/rule.ts');
  });
});
