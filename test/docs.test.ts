// The README is a front door: short, the two set-up commands first, and every page it points to
// exists. The same for the links between the pages of docs/: a moved or renamed page, or a renamed
// heading, fails here instead of leaving a reader at a dead link.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const README = join(ROOT, 'README.md');
const DOCS = join(ROOT, 'docs');

/** Markdown without fenced code blocks and inline code, where `](…)` is not a link. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors a Markdown file offers (repeated headings get -1, -2, … as on GitHub). */
function headingAnchors(file: string): Set<string> {
  const markdown = readFileSync(file, 'utf8').replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const [, text] of markdown.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(text);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

/** Every relative link of a Markdown file that does not resolve: `target — reason`. */
function brokenLinks(file: string): string[] {
  const broken: string[] = [];
  for (const [, rawTarget] of prose(readFileSync(file, 'utf8')).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = rawTarget.replace(/^<|>$/g, '');
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, …
    const [path, anchor] = target.split('#', 2) as [string, string | undefined];
    const resolved = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
    if (!existsSync(resolved)) {
      broken.push(`${target} — no such file (${relative(ROOT, resolved)})`);
      continue;
    }
    if (anchor && resolved.endsWith('.md') && statSync(resolved).isFile() && !headingAnchors(resolved).has(anchor)) {
      broken.push(`${target} — no heading with the anchor #${anchor} in ${relative(ROOT, resolved)}`);
    }
  }
  return broken;
}

describe('the README', () => {
  const readme = readFileSync(README, 'utf8');

  it('is a front door of at most 250 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
  });

  it('opens with the two set-up commands, start then test', () => {
    const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const lines = firstBlock.split('\n').map((line) => line.replace(/#.*$/, '').trim());
    expect(lines.slice(0, 2)).toEqual(['npm ci && npm start', 'npm ci && npm test']);
    expect(readme.indexOf('```sh')).toBeLessThan(readme.indexOf('\n## '));
  });
});

describe('relative links of the README, docs/ and the PR analysis README', () => {
  const pages = [
    README,
    join(ROOT, 'packages/engine/src/pr/README.md'),
    ...readdirSync(DOCS)
      .filter((name) => name.endsWith('.md'))
      .map((name) => join(DOCS, name)),
  ];

  it.each(pages.map((page) => [relative(ROOT, page), page]))('%s links only to files and headings that exist', (_name, page) => {
    expect(brokenLinks(page)).toEqual([]);
  });

  it('a link to a missing file or heading is reported', () => {
    const dir = mkdtempSync(join(tmpdir(), 'codehealth-docs-links-'));
    try {
      writeFileSync(join(dir, 'b.md'), '# B\n\n## Scoring model (`DefaultScoringModel`, id `default-v2`)\n\n## Twice\n\n## Twice\n');
      writeFileSync(
        join(dir, 'a.md'),
        [
          '[ok](b.md) [ok](b.md#scoring-model-defaultscoringmodel-id-default-v2) [ok](b.md#twice-1) [ok](https://example.com/x.md)',
          '[gone](c.md) [no heading](b.md#nothing-here) `[in code](d.md)`',
          '```md\n[in a block](e.md)\n```',
        ].join('\n'),
      );
      expect(brokenLinks(join(dir, 'a.md')).map((line) => line.split(' — ')[0])).toEqual(['c.md', 'b.md#nothing-here']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
