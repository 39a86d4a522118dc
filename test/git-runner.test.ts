// One hardened git runner (issue 19): product code of every package runs git through
// `packages/engine/src/git-process/spawn-git.ts` (spawnGit, or runGitCommand over the git helper),
// which scrubs the environment, disables a repository's hooks and fsmonitor, never prompts and
// bounds time and output. A direct execFile('git', …), spawn('git', …) or exec('git …') elsewhere in a
// package's non-test sources fails here. Tests, fixtures and the repository's scripts may build
// their own repositories with git directly.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const RUNNER = 'packages/engine/src/git-process/spawn-git.ts';

const isTest = (path: string) => path.endsWith('.test.ts') || path.split('/').includes('fixtures');

/** The non-test TypeScript sources of every package and example, relative to the repository root. */
function productSources(): string[] {
  const files: string[] = [];
  for (const parent of ['packages', 'examples']) {
    for (const name of readdirSync(join(root, parent))) {
      const src = join(parent, name, 'src');
      let entries: string[];
      try {
        entries = readdirSync(join(root, src), { recursive: true }) as string[];
      } catch {
        continue;
      }
      for (const entry of entries) {
        const path = join(src, entry);
        if (/\.(ts|tsx|mts|js|mjs)$/.test(entry) && !entry.endsWith('.d.ts') && !isTest(path) && !path.split('/').includes('node_modules')) files.push(path);
      }
    }
  }
  return files.sort();
}

/** A child_process call whose program is git: `spawn('git'`, `execFileSync("git"`, `exec('git status'`, with or without a namespace. */
const DIRECT_GIT = /\b(?:spawn|spawnSync|execFile|execFileSync|exec|execSync|fork)\(\s*(['"`])git(?:\1|\s)/g;

function directGitCalls(path: string): string[] {
  const text = readFileSync(join(root, path), 'utf8');
  return [...text.matchAll(DIRECT_GIT)].map((match) => `${path}:${text.slice(0, match.index).split('\n').length}: ${match[0]}`);
}

describe('one hardened git runner', () => {
  const sources = productSources();

  it('scans every package (and sees the runner’s own spawn)', () => {
    expect(sources.length).toBeGreaterThan(400);
    for (const pkg of ['engine', 'analyzers', 'service', 'http', 'worker', 'cli']) expect(sources.some((p) => p.startsWith(`packages/${pkg}/src/`))).toBe(true);
    expect(directGitCalls(RUNNER)).toHaveLength(1);
  });

  it('spawns git nowhere else in product code', () => {
    expect(sources.filter((path) => path !== RUNNER).flatMap(directGitCalls)).toEqual([]);
  });

  it('recognises the direct calls it refuses', () => {
    const samples = ["execFile('git', ['rev-parse'])", 'spawnSync("git", args)', 'cp.execSync(`git status`)', "exec('git status', cb)"];
    for (const sample of samples) expect(sample.match(DIRECT_GIT), sample).not.toBeNull();
    expect("spawn('gitleaks', [])".match(DIRECT_GIT)).toBeNull();
  });
});
