import { describe, expect, it } from 'vitest';
import { analyzeWith, MiniRepo } from '../../shared/fixtures/mini-repo.js';
import { compliance } from '../index.js';
import { parseLinePorcelain, type LineOrigin } from './blame.js';
import { reusedOrigins, saveOrigins } from './rule.js';

const RULE = 'compliance/debt-marker';
const markers = [
  '// TODO: handle escapes',
  'export function parse(raw: string) {',
  '  /* FIXME(ada): off by one */',
  '  return raw; // HACK - until the API settles',
  '}',
  '/**',
  ' * Parses things.',
  ' * @todo support streams',
  ' * XXX',
  ' */',
  'export const x = 1;',
  '',
].join('\n');
const notMarkers = [
  '// Keeps the TODO list of the user.',
  "const s = '// TODO: not a comment';",
  '// todos are stored here; fixmeLater is a name',
  '// TODOS: plural is not a marker',
  '/* XXXL sizes */',
  'export const y = s;',
  '',
].join('\n');

async function run(repo: MiniRepo) {
  const result = await analyzeWith(compliance, repo.root);
  return { result, findings: result.findings.filter((f) => f.ruleId === RULE) };
}

describe('compliance/debt-marker', () => {
  it('finds markers at the start of comment lines, not in prose, strings or fixtures; without git their age is unknown', async () => {
    const { findings, result } = await run(
      new MiniRepo({ 'src/parse.ts': markers, 'src/prose.ts': notMarkers, 'test/fixtures/planted.ts': '// TODO: planted for a test\nexport {};\n' }),
    );
    expect(findings.map((f) => [f.anchor.lineStart, f.title, f.severity, f.symbol ?? ''])).toEqual([
      [1, 'TODO in parse.ts: handle escapes', 'info', ''],
      [3, 'FIXME in parse.ts: off by one', 'info', 'parse'],
      [4, 'HACK in parse.ts: until the API settles', 'info', 'parse'],
      [8, 'TODO in parse.ts: support streams', 'info', ''],
      [9, 'XXX in parse.ts', 'info', ''],
    ]);
    expect(findings[0].description).toBe('TODO comment at src/parse.ts:1: "handle escapes". Its age is unknown (no git history).');
    expect(result.metrics.analyzerMetrics['compliance.debtMarkers']).toBe(5);
    expect(result.metrics.analyzerMetrics['compliance.debtMarkersOlderThanLow']).toBeUndefined();
  });

  it('rates markers by their age from git blame: info when young, low after 90 days, medium after 365', async () => {
    const repo = new MiniRepo().initGit();
    repo.commit({ 'src/a.ts': '// TODO: ancient\nexport const a = 1;\n' }, 400);
    repo.commit({ 'src/a.ts': '// TODO: ancient\n// FIXME: middle-aged\nexport const a = 1;\n' }, 120);
    repo.commit({ 'src/b.ts': 'export function f() {\n  // HACK: recent\n}\n' }, 10);
    repo.commit({ 'src/c.ts': 'export const c = 1;\n' }, 0);
    repo.write({ 'src/b.ts': 'export function f() {\n  // HACK: recent\n  // TODO: uncommitted\n}\n' });
    const { findings, result } = await run(repo);
    expect(findings.map((f) => [f.filePath, f.anchor.lineStart, f.title, f.severity, f.data?.ageDays])).toEqual([
      ['src/a.ts', 1, 'TODO in a.ts (400 days old): ancient', 'medium', 400],
      ['src/a.ts', 2, 'FIXME in a.ts (120 days old): middle-aged', 'low', 120],
      ['src/b.ts', 2, 'HACK in b.ts (10 days old): recent', 'info', 10],
      ['src/b.ts', 3, 'TODO in b.ts (not committed yet): uncommitted', 'info', undefined],
    ]);
    expect(findings[0].description).toMatch(
      /^TODO comment at src\/a\.ts:1: "ancient"\. It was written 400 days before the assessed commit \(\d{4}-\d\d-\d\d, by Ada, commit [0-9a-f]{8}\)\.$/,
    );
    expect(findings[2].symbol).toBe('f');
    expect(result.metrics.analyzerMetrics).toMatchObject({
      'compliance.debtMarkers': 4,
      'compliance.debtMarkersOlderThanLow': 2,
      'compliance.debtMarkersOlderThanMedium': 1,
    });
  });

  it('measures ages against the assessed commit, not the day of the analysis: the same commit scores the same any day', async () => {
    const repo = new MiniRepo().initGit();
    repo.commit({ 'src/a.ts': '// TODO: old\nexport const a = 1;\n' }, 500);
    repo.commit({ 'src/b.ts': '// TODO: as new as the commit\nexport const b = 1;\n' }, 200);
    const { findings } = await run(repo);
    expect(findings.map((f) => [f.filePath, f.data?.ageDays, f.severity])).toEqual([
      ['src/a.ts', 300, 'low'],
      ['src/b.ts', 0, 'info'],
    ]);
  });

  it('says "at least" for lines a shallow clone attributes to its boundary commit', async () => {
    const origin = new MiniRepo().initGit();
    origin.commit({ 'src/a.ts': '// TODO: ancient\nexport const a = 1;\n' }, 400);
    origin.commit({ 'src/b.ts': 'export const b = 1;\n' }, 10);
    origin.commit({ 'src/c.ts': 'export const c = 1;\n' }, 0);
    const shallow = new MiniRepo();
    shallow.git(['clone', '--quiet', '--depth', '2', `file://${origin.root}`, '.']);
    const { findings } = await run(shallow);
    expect(findings.map((f) => [f.title, f.severity])).toEqual([['TODO in a.ts (at least 10 days old): ancient', 'info']]);
    // Cut at the assessed commit itself, the clone knows nothing of the line's age.
    const shallower = new MiniRepo();
    shallower.git(['clone', '--quiet', '--depth', '1', `file://${origin.root}`, '.']);
    expect((await run(shallower)).findings.map((f) => [f.title, f.severity])).toEqual([['TODO in a.ts (older than the shallow clone): ancient', 'info']]);
  });

  it('honours markers, includeTests, the age limits and blame: false', async () => {
    const repo = new MiniRepo().initGit();
    repo.commit({ 'src/a.ts': '// TODO: one\n// XXX: two\nexport const a = 1;\n', 'src/a.test.ts': '// FIXME: in a test\n' }, 50);
    repo.commit({ 'src/c.ts': 'export const c = 1;\n' }, 0);
    repo.write({
      'codehealth.config.json': JSON.stringify({
        rules: { [RULE]: { options: { markers: ['TODO', 'FIXME'], includeTests: false, lowAfterDays: 30, mediumAfterDays: 40 } } },
      }),
    });
    expect((await run(repo)).findings.map((f) => [f.title, f.severity])).toEqual([['TODO in a.ts (50 days old): one', 'medium']]);
    repo.write({ 'codehealth.config.json': JSON.stringify({ rules: { [RULE]: { options: { blame: false } } } }) });
    expect((await run(repo)).findings.map((f) => [f.title, f.severity])).toEqual([
      ['FIXME in a.test.ts: in a test', 'info'],
      ['TODO in a.ts: one', 'info'],
      ['XXX in a.ts: two', 'info'],
    ]);
  });
});

describe('parseLinePorcelain', () => {
  it('reads the final line, author, time, uncommitted and boundary flags of each record', () => {
    const sha = 'a'.repeat(40);
    const output = [
      `${sha} 3 7 1`,
      'author Ada Lovelace',
      'author-time 1700000000',
      'summary fix: author-time 5 in a summary',
      'boundary',
      'filename src/a.ts',
      '\t// TODO: x',
      `${'0'.repeat(40)} 9 9 1`,
      'author Not Committed Yet',
      'author-time 1800000000',
      'filename src/a.ts',
      '\t// FIXME',
      '',
    ].join('\n');
    expect([...parseLinePorcelain(output)]).toEqual([
      [7, { authorTime: 1700000000, author: 'Ada Lovelace', commit: sha, uncommitted: false, boundary: true }],
      [9, { authorTime: 1800000000, author: 'Not Committed Yet', commit: '0'.repeat(40), uncommitted: true, boundary: false }],
    ]);
  });
});

describe('blame state kept with the run', () => {
  const sha = 'b'.repeat(40);
  const origin = (authorTime: number, boundary = false): LineOrigin => ({ authorTime, author: 'Ada', commit: sha, uncommitted: false, boundary });
  const blamed = new Map([
    [
      'src/same.ts',
      new Map([
        [1, origin(100)],
        [4, origin(200, true)],
      ]),
    ],
    ['src/edited.ts', new Map([[2, origin(300)]])],
    ['src/dirty.ts', new Map([[5, { ...origin(400), uncommitted: true }]])],
  ]);
  const previous = (state: unknown) => ({
    state: JSON.parse(JSON.stringify(state)) as unknown,
    changedPaths: new Set(['src/edited.ts']),
    summaryBefore: async () => undefined,
  });

  it('keeps the origins of files that did not change, and only of the lines asked for before', () => {
    const state = saveOrigins(blamed);
    expect(state.files.map(([path]) => path)).toEqual(['src/same.ts', 'src/edited.ts']);
    const toBlame = new Map([
      ['src/same.ts', [1, 4]],
      ['src/edited.ts', [2]],
      ['src/new.ts', [1]],
    ]);
    expect([...reusedOrigins(previous(state), toBlame)]).toEqual([['src/same.ts', blamed.get('src/same.ts')]]);
    // A marker line the earlier run did not blame (other markers asked for then): the file is blamed again.
    expect(reusedOrigins(previous(state), new Map([['src/same.ts', [1, 2]]])).size).toBe(0);
  });

  it('ignores a state of another format or a malformed one', () => {
    const toBlame = new Map([['src/same.ts', [1]]]);
    expect(reusedOrigins(previous({ format: 2, files: [] }), toBlame).size).toBe(0);
    expect(reusedOrigins(previous({ format: 1, files: [['src/same.ts', [['1', 100, 'Ada', sha, 0]]]] }), toBlame).size).toBe(0);
    expect(reusedOrigins(previous({ format: 1, files: 'x' }), toBlame).size).toBe(0);
    expect(reusedOrigins(undefined, toBlame).size).toBe(0);
  });
});
