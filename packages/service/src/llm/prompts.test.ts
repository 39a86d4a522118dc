// What the large model is sent: credential masking on real key shapes (and not on paths,
// identifiers or hashes), and the diff excerpt's marks, deletions, shared context and budget.
import { describe, expect, it } from 'vitest';
import type { ChangedFile, PullRequestDiff } from '@codehealth/engine/internal';
import { DIFF_REVIEW_DEFAULTS, diffExcerpt, redactSecrets } from './prompts.js';

describe('redactSecrets', () => {
  it('masks known key shapes, assigned secrets and random-looking tokens, keeping 4 characters', () => {
    const aws = 'AKIA' + 'QX7PLM2ZK4RTV9WN';
    const github = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
    const openai = 'sk-proj-' + 'QDoo4B84wVUutYzXnZ6CE0FVIMetWnzn';
    const signing = 'W8IIok7tCgP8h8bo8uRheeWfcBBu/ArS716eDR6PRuNFwj6ggAYZHk+DtWpAhTzY';
    expect(redactSecrets(`const id = '${aws}';`)).toBe("const id = 'AKIA************';");
    expect(redactSecrets(`fetch(url, { headers: { authorization: 'token ${github}' } })`)).toBe(
      "fetch(url, { headers: { authorization: 'token ghp_************' } })",
    );
    expect(redactSecrets(`OPENAI_KEY=${openai}`)).toBe('OPENAI_KEY=sk-p************');
    expect(redactSecrets(`const secret = "${signing}";`)).toBe('const secret = "W8II************";');
    expect(redactSecrets('db.connect({ password: "hunter2hunter2" })')).toBe('db.connect({ password: "hunt************" })');
  });

  it('leaves code, paths, identifiers and hashes alone', () => {
    for (const line of [
      "import { ChartPanel } from 'src/components/Dashboard2/widgets/ChartPanel';",
      'const useQueryClientProviderWithSuspense2Boundary = () => null;',
      "const integrity = '298d4e923496c14d168115ffa8b2786597700788';",
      'const password = input.value; // read from the form',
      "const tokenizer = 'ws';",
    ]) {
      expect(redactSecrets(line)).toBe(line);
    }
  });
});

const changed = (over: Partial<ChangedFile>): ChangedFile => ({
  path: 'src/a.ts',
  status: 'modified',
  additions: 1,
  deletions: 0,
  binary: false,
  generated: false,
  kind: 'source',
  hunks: [],
  symbols: [],
  ...over,
});
const diffOf = (...files: ChangedFile[]): PullRequestDiff => ({ baseSha: 'b', headSha: 'h', mergeBaseSha: 'b', files, commits: [] });
const text = (n: number) => Array.from({ length: n }, (_, i) => `line${i + 1}`).join('\n') + '\n';

describe('diffExcerpt', () => {
  it('marks changed lines, shows deletions, shares context between close hunks and allows ±3 lines around changes', () => {
    const file = changed({
      hunks: [
        { oldStart: 5, oldLines: 1, newStart: 5, newLines: 1 }, // line 5 changed
        { oldStart: 8, oldLines: 0, newStart: 8, newLines: 2 }, // lines 8-9 added
        { oldStart: 16, oldLines: 2, newStart: 17, newLines: 0 }, // 2 lines removed after line 17
        { oldStart: 1, oldLines: 1, newStart: 0, newLines: 0 }, // never mind the order: 1 line removed at the top
      ].sort((a, b) => a.newStart - b.newStart),
    });
    const excerpt = diffExcerpt(diffOf(file), [{ path: 'src/a.ts', headText: text(30) }], DIFF_REVIEW_DEFAULTS);
    expect(excerpt.user).toBe(
      'Changed hunks of the pull request (head line numbers):\n\n=== src/a.ts (modified) ===\n' +
        '(1 line removed)\n1   line1\n2   line2\n3   line3\n' +
        '4   line4\n5 + line5\n6   line6\n7   line7\n8 + line8\n9 + line9\n10   line10\n11   line11\n12   line12\n' +
        '…\n15   line15\n16   line16\n17   line17\n(2 lines removed)\n18   line18\n19   line19\n20   line20\n',
    );
    expect(excerpt.hunks).toBe(4);
    expect(excerpt.sent.get('src/a.ts')!.allowed).toEqual([
      [1, 3],
      [2, 8],
      [5, 12],
      [15, 20],
    ]);
    expect(excerpt.skipped).toEqual([]);
  });

  it('sends source before tests and config, and skips what is not reviewed', () => {
    const excerpt = diffExcerpt(
      diffOf(
        changed({ path: 'a.config.json', kind: 'config', hunks: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1 }] }),
        changed({ path: 'src/a.test.ts', kind: 'test', hunks: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1 }] }),
        changed({ path: 'src/b.ts', hunks: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1 }] }),
        changed({ path: 'dist/b.js', generated: true, hunks: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1 }] }),
        changed({ path: 'logo.png', binary: true }),
        changed({ path: 'src/c.ts', status: 'renamed', oldPath: 'src/old-c.ts' }),
        changed({ path: 'src/d.ts', hunks: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1 }] }),
      ),
      ['a.config.json', 'src/a.test.ts', 'src/b.ts', 'dist/b.js'].map((path) => ({ path, headText: 'x\n' })),
      DIFF_REVIEW_DEFAULTS,
    );
    expect([...excerpt.user.matchAll(/^=== (\S+)/gm)].map((m) => m[1])).toEqual(['src/b.ts', 'src/a.test.ts', 'a.config.json']);
    expect(excerpt.skipped).toEqual([
      { path: 'dist/b.js', reason: 'generated or vendored' },
      { path: 'logo.png', reason: 'binary' },
      { path: 'src/c.ts', reason: 'no changed lines' },
      { path: 'src/d.ts', reason: 'head text not available' },
    ]);
  });
});
