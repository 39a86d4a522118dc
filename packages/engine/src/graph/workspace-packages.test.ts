import { describe, expect, it } from 'vitest';
import { createWorkspaceMatcher } from './workspace-packages.js';

describe('createWorkspaceMatcher', () => {
  it('reads workspace globs as npm, yarn and pnpm do', () => {
    const inWorkspace = createWorkspaceMatcher(['packages/*', 'apps/**', '!packages/legacy', 42])!;
    expect(['packages/a', 'apps/web', 'apps/web/admin', 'packages/legacy', 'packages/a/b', 'tools/x'].map(inWorkspace)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(createWorkspaceMatcher(['!packages/*'])).toBeUndefined();
  });

  it('matches a manifest-supplied glob that makes RegExp backtrack against a long directory at once', () => {
    // As `^a[^/]*a[^/]*...b$`, RegExp takes about n^9 steps on n a's.
    const inWorkspace = createWorkspaceMatcher([`${'a*'.repeat(10)}b`])!;
    expect(inWorkspace('a'.repeat(5_000))).toBe(false);
    expect(inWorkspace(`${'a'.repeat(5_000)}b`)).toBe(true);
  });
});
