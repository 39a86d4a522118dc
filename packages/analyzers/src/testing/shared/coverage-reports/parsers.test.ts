import { describe, expect, it } from 'vitest';
import { parseCobertura } from './cobertura.js';
import { parseIstanbulFinal, parseIstanbulSummary } from './istanbul.js';
import { parseLcov } from './lcov.js';

// Written by `node --test --experimental-test-coverage --test-reporter=lcov` (Node 20).
const LCOV = `TN:
SF:src/math.js
FN:1,add
FNDA:1,add
FNF:1
FNH:1
DA:1,1
DA:2,1
DA:3,1
DA:4,1
DA:5,0
DA:6,0
DA:7,0
DA:8,0
DA:9,0
LH:4
LF:9
end_of_record
SF:/ci/build/src/other.ts
DA:3,2
DA:4,0
end_of_record
`;

describe('lcov', () => {
  it('reads LF/LH per file, the uncovered DA lines, and falls back to DA lines without LF/LH', () => {
    expect(parseLcov(LCOV)).toEqual({
      format: 'lcov',
      files: [
        { path: 'src/math.js', found: 9, hit: 4, uncovered: [5, 6, 7, 8, 9] },
        { path: '/ci/build/src/other.ts', found: 2, hit: 1, uncovered: [4] },
      ],
      total: { found: 11, hit: 5 },
    });
  });

  it('ignores lines outside records and CRLF line ends', () => {
    expect(parseLcov('DA:1,1\r\nSF:a.ts\r\nDA:1,0\r\nend_of_record\r\n').files).toEqual([{ path: 'a.ts', found: 1, hit: 0, uncovered: [1] }]);
  });
});

describe('istanbul', () => {
  it('json-summary: the total and per-file line counts', () => {
    const summary = JSON.stringify({
      total: { lines: { total: 10, covered: 7, skipped: 0, pct: 70 }, statements: { total: 12, covered: 8, pct: 66.66 } },
      '/repo/src/a.ts': { lines: { total: 6, covered: 5, skipped: 0, pct: 83.33 } },
      '/repo/src/b.ts': { lines: { total: 4, covered: 2, skipped: 0, pct: 50 } },
    });
    expect(parseIstanbulSummary(summary)).toEqual({
      format: 'istanbul-summary',
      files: [
        { path: '/repo/src/a.ts', found: 6, hit: 5 },
        { path: '/repo/src/b.ts', found: 4, hit: 2 },
      ],
      total: { found: 10, hit: 7 },
    });
  });

  it('coverage-final: a line is covered when any statement starting on it ran', () => {
    const final = JSON.stringify({
      '/repo/src/a.ts': {
        path: '/repo/src/a.ts',
        statementMap: {
          '0': { start: { line: 1, column: 0 }, end: { line: 1, column: 10 } },
          '1': { start: { line: 2, column: 2 }, end: { line: 2, column: 9 } },
          '2': { start: { line: 2, column: 11 }, end: { line: 2, column: 20 } },
          '3': { start: { line: 4, column: 2 }, end: { line: 4, column: 9 } },
        },
        s: { '0': 1, '1': 0, '2': 3, '3': 0 },
        fnMap: {},
        f: {},
        branchMap: {},
        b: {},
      },
    });
    expect(parseIstanbulFinal(final)).toEqual({
      format: 'istanbul-final',
      files: [{ path: '/repo/src/a.ts', found: 3, hit: 2, uncovered: [4] }],
      total: { found: 3, hit: 2 },
    });
  });

  it('refuses JSON of another shape', () => {
    expect(parseIstanbulSummary('[1, 2]')).toBeUndefined();
    expect(parseIstanbulFinal('{"a": {"b": 1}}')).toBeUndefined();
  });
});

describe('cobertura', () => {
  const xml = `<?xml version="1.0" ?>
<!DOCTYPE coverage SYSTEM "http://cobertura.sourceforge.net/xml/coverage-04.dtd">
<coverage lines-valid="5" lines-covered="3" line-rate="0.6" branches-valid="0" branches-covered="0" branch-rate="1" timestamp="1" complexity="0" version="0.1">
  <sources>
    <source>/repo/packages/app</source>
  </sources>
  <packages>
    <package name="src" line-rate="0.6" branch-rate="1">
      <classes>
        <class name="a.ts" filename="src/a.ts" line-rate="0.6667" branch-rate="1">
          <methods/>
          <lines>
            <line number="1" hits="1"/>
            <line hits="0" number="2"/>
            <line number="3" hits="4" branch="false"/>
          </lines>
        </class>
        <class name="b &amp; c.ts" filename="src/b &amp; c.ts" line-rate="0.5">
          <lines><line number="7" hits="0"/><line number="8" hits="1"/></lines>
        </class>
      </classes>
    </package>
  </packages>
</coverage>`;

  it('reads sources, classes with their lines in any attribute order, and the root totals', () => {
    expect(parseCobertura(xml)).toEqual({
      format: 'cobertura',
      files: [
        { path: 'src/a.ts', found: 3, hit: 2, uncovered: [2] },
        { path: 'src/b & c.ts', found: 2, hit: 1, uncovered: [7] },
      ],
      total: { found: 5, hit: 3 },
      sources: ['/repo/packages/app'],
    });
  });

  it('keeps a bare line rate when the report counts no lines, and refuses other XML', () => {
    expect(parseCobertura('<coverage line-rate="0.42"></coverage>')).toMatchObject({ files: [], rate: 0.42 });
    expect(parseCobertura('<report/>')).toBeUndefined();
  });
});
