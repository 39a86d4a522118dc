// Minimal globs for the `entries` option (`src/cli/**`, `*.worker.ts`): `**` any depth, `*` within a
// segment, `?` one character; a glob without a slash matches the file name at any depth. Also read
// from the repository's code (`import.meta.glob`), so they run in linear time (`a*a*a*a*b` backtracks).
import { compileSafeRegExp, type SafeRegExp } from '@codehealth/engine/kit';

export function globMatcher(globs: readonly string[]): (path: string) => boolean {
  if (globs.length === 0) return () => false;
  const byPath = globs.filter((g) => g.includes('/')).map(toRegExp);
  const byName = globs.filter((g) => !g.includes('/')).map(toRegExp);
  return (path) => {
    const name = path.slice(path.lastIndexOf('/') + 1);
    return byPath.some((re) => re.test(path)) || byName.some((re) => re.test(name));
  };
}

function toRegExp(glob: string): Pick<SafeRegExp, 'test'> {
  const clean = glob.replace(/^\.\//, '');
  let source = '';
  for (let i = 0; i < clean.length; i++) {
    const c = clean[i];
    if (c === '*' && clean[i + 1] === '*') {
      // `**/` also matches no directory at all.
      const slash = clean[i + 2] === '/';
      source += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else source += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  try {
    return compileSafeRegExp(`^${source}$`);
  } catch {
    // Too large for the matcher (tens of thousands of characters): it matches nothing.
    return { test: () => false };
  }
}
