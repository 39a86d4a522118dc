import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { joinPath } from './file-probe.js';

/** The path node:path makes of the join, without a trailing `/`, the root as `''`. */
function normalisedJoin(dir: string, relative: string): string {
  const path = posix.normalize(`${dir || '.'}/${relative}`).replace(/\/$/, '');
  return path === '.' ? '' : path;
}

describe('joinPath', () => {
  it('joins plain segments and normalises the rest', () => {
    expect(joinPath('packages/a', './dist/x.js')).toBe('packages/a/dist/x.js');
    expect(joinPath('', './dist/x.js')).toBe('dist/x.js');
    expect(joinPath('packages/a', '../b/./src//y.ts')).toBe('packages/b/src/y.ts');
    expect(joinPath('a', '..')).toBe('');
    expect(joinPath('', '../x')).toBe('../x');
    expect(joinPath('a', './')).toBe('a');
  });

  it('answers what normalising answers, on random paths with empty, `.` and `..` segments', () => {
    const segments = ['a', 'b', '.', '..', '', '.a', '..b', 'a.', 'src'];
    let seed = 11;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), (seed >> 8) % n);
    const path = () => Array.from({ length: random(4) }, () => segments[random(segments.length)]).join('/');
    for (let i = 0; i < 20000; i++) {
      const dir = random(3) === 0 ? '' : path();
      const relative = ['./', '/', ''][random(3)] + path() + (random(5) === 0 ? '/' : '');
      expect(joinPath(dir, relative), JSON.stringify([dir, relative])).toBe(normalisedJoin(dir, relative));
    }
  });
});
