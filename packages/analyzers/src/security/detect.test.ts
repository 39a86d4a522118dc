import type { RepoFile, RepoSnapshot } from '@codehealth/engine';
import { describe, expect, it } from 'vitest';
import { detectSecurity } from './detect.js';

function snapshot(files: Array<[path: string, kind: RepoFile['kind']]>): RepoSnapshot {
  return {
    root: '/repo',
    files: files.map(([path, kind]) => ({ path, kind, language: 'other', sizeBytes: 1 })),
    readFile: async () => '',
    git: async () => ({
      available: false,
      files: new Map(),
      totals: { linesAdded30d: 0, linesDeleted30d: 0, linesAdded90d: 0, linesDeleted90d: 0, commits30d: 0, commits90d: 0, authors30d: 0, authors90d: 0 },
    }),
  };
}

describe('security detect()', () => {
  it('gives each source file to its nearest package root and lists roots with sources, root first', () => {
    const detections = detectSecurity(
      snapshot([
        ['package.json', 'config'],
        ['scripts/release.mjs', 'source'],
        ['apps/web/package.json', 'config'],
        ['apps/web/src/main.tsx', 'source'],
        ['apps/web/src/main.test.tsx', 'test'],
        ['libs/empty/package.json', 'config'],
        ['libs/empty/README.md', 'documentation'],
        ['node_modules/x/package.json', 'vendored'],
        ['node_modules/x/index.js', 'vendored'],
      ]),
    );
    expect(detections.map(({ language, path, enabled }) => ({ language, path, enabled }))).toEqual([
      { language: 'javascript', path: '.', enabled: true },
      { language: 'typescript', path: 'apps/web', enabled: true },
    ]);
    expect(detections[0].description).toMatch(/^Security checks on 1 JavaScript source file: code evaluation/);
  });

  it('treats a repository without package.json as one root, and one without sources as nothing', () => {
    expect(
      detectSecurity(
        snapshot([
          ['src/a.ts', 'source'],
          ['src/b.js', 'source'],
        ]),
      ).map((d) => [d.path, d.language]),
    ).toEqual([['.', 'typescript']]);
    expect(
      detectSecurity(
        snapshot([
          ['package.json', 'config'],
          ['README.md', 'documentation'],
        ]),
      ),
    ).toEqual([]);
  });
});
