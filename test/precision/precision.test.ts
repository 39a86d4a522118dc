// The precision panel's parts (issue 17): label files, matching labels to findings, the Wilson
// interval and bar, the deterministic labelling sample and the README line.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import plugin from '@codehealth/analyzers';
import { describe, expect, it } from 'vitest';
import { familyOfLabelFile, matchLabels, parseLabels } from './labels.mjs';
import { precisionLine, withPrecisionLine } from './readmes.mjs';
import { labelStub, pickSample, sampleKey } from './sampling.mjs';
import { precisionBar, precisionOf, wilsonInterval } from './statistics.mjs';
import { summariseRules } from './report.mjs';

const FILE = 'test/precision/labels/code-smell.jsonl';
const known = { repos: new Set(['immerjs/immer']), rules: new Set(['code-smell/long-function', 'security/no-eval']), family: 'code-smell' };
const label = (fields: Record<string, unknown> = {}) =>
  JSON.stringify({
    repo: 'immerjs/immer',
    rule: 'code-smell/long-function',
    file: 'src/proxy.ts',
    line: 10,
    hint: 'function createProxy(',
    verdict: 'tp',
    reason: 'too long to read',
    ...fields,
  });

describe('label files', () => {
  it('reads good lines, skipping blank ones, and remembers where each came from', () => {
    const { labels, errors } = parseLabels(`${label()}\n\n${label({ line: 40, symbol: 'other', hint: undefined, verdict: 'fp' })}\n`, FILE, known);
    expect(errors).toEqual([]);
    expect(labels.map((l) => [l.line, l.verdict, l.where])).toEqual([
      [10, 'tp', `${FILE}:1`],
      [40, 'fp', `${FILE}:3`],
    ]);
  });

  it('names file:line for each bad line and keeps the good ones', () => {
    const text = [label(), '{"repo": "immerjs/immer",', label({ verdict: 'maybe' }), label({ reason: '' })].join('\n');
    const { labels, errors } = parseLabels(text, FILE, known);
    expect(labels).toHaveLength(1);
    expect(errors).toHaveLength(3);
    expect(errors[0]).toMatch(new RegExp(`^${FILE}:2: not JSON`));
    expect(errors[1]).toMatch(new RegExp(`^${FILE}:3: .*"verdict" must be tp, fp or debatable \\(got "maybe"\\)`));
    expect(errors[2]).toMatch(new RegExp(`^${FILE}:4: .*"reason"`));
  });

  it("refuses a label outside the panel, an unknown rule, a rule of another family, unknown keys and the stub's context", () => {
    const lines = [
      label({ repo: 'someone/else' }),
      label({ rule: 'code-smell/long-functions' }),
      label({ rule: 'security/no-eval' }),
      label({ colour: 'red' }),
      label({ context: ['   10| function createProxy('] }),
      label({ symbol: undefined, hint: undefined }),
      label({ file: '/abs/src/proxy.ts' }),
      label({ line: 0 }),
    ];
    const { labels, errors } = parseLabels(lines.join('\n'), FILE, known);
    expect(labels).toEqual([]);
    expect(errors.map((e) => e.split(': ')[0])).toEqual(lines.map((_, i) => `${FILE}:${i + 1}`));
    expect(errors[0]).toContain('not in test/precision/panel.json');
    expect(errors[1]).toContain('not a registered rule');
    expect(errors[2]).toContain('belongs in security.jsonl');
    expect(errors[3]).toContain('unknown key "colour"');
    expect(errors[4]).toContain('"context" is for reading only');
    expect(errors[5]).toContain('needs a "symbol" or a "hint"');
    expect(errors[6]).toContain('relative to the checkout root');
    expect(errors[7]).toContain('"line" must be a whole number');
  });

  it('refuses a second label of the same finding, naming the first', () => {
    const { labels, errors } = parseLabels(`${label()}\n${label({ verdict: 'fp' })}`, FILE, known);
    expect(labels).toHaveLength(1);
    expect(errors).toEqual([`${FILE}:2: the same finding as ${FILE}:1 (repo, rule, file, line, symbol, hint and title all equal)`]);
  });
});

/** A file of `count` filler lines with `text` put at the given 1-based lines. */
function sourceWith(count: number, placed: Record<number, string>) {
  return Array.from({ length: count }, (_, i) => placed[i + 1] ?? `const filler${i + 1} = ${i + 1}`);
}
const finding = (line: number, endLine: number, fields: Record<string, unknown> = {}) => ({
  repo: 'immerjs/immer',
  rule: 'code-smell/long-function',
  file: 'src/proxy.ts',
  line,
  endLine,
  ...fields,
});
const parsed = (...lines: string[]) => parseLabels(lines.join('\n'), FILE, known).labels;

describe('matching labels to findings', () => {
  it("survives a line move: the hint found in the finding's lines, wherever they are now", () => {
    const lines = sourceWith(200, { 125: 'export function createProxy(base) {' });
    const [l] = parsed(label({ line: 10 }));
    const moved = finding(125, 190);
    const { matches, stale } = matchLabels([l], [moved], () => lines);
    expect(matches.get(l)).toBe(moved);
    expect(stale).toEqual([]);
  });

  it('looks for the hint two lines either side of the finding, no further', () => {
    const lines = sourceWith(100, { 50: 'export function createProxy(base) {' });
    const [l] = parsed(label({ line: 50 }));
    expect(matchLabels([l], [finding(52, 60)], () => lines).matches.size).toBe(1);
    expect(matchLabels([l], [finding(53, 60)], () => lines).matches.size).toBe(0);
    expect(matchLabels([l], [finding(40, 48)], () => lines).matches.size).toBe(1);
    expect(matchLabels([l], [finding(40, 47)], () => lines).matches.size).toBe(0);
  });

  it('matches by symbol when both have one; a different symbol needs the hint', () => {
    const lines = sourceWith(100, {});
    const [bySymbol] = parsed(label({ hint: undefined, symbol: 'createProxy' }));
    expect(matchLabels([bySymbol], [finding(70, 90, { symbol: 'createProxy' })], () => lines).matches.size).toBe(1);
    expect(matchLabels([bySymbol], [finding(70, 90, { symbol: 'finalize' })], () => lines).matches.size).toBe(0);
    expect(matchLabels([bySymbol], [finding(70, 90)], () => lines).matches.size).toBe(0);
    const withHint = sourceWith(100, { 70: 'export function createProxy(base) {' });
    const [both] = parsed(label({ symbol: 'createProxy' }));
    expect(matchLabels([both], [finding(70, 90, { symbol: 'renamedByTheRule' })], () => withHint).matches.size).toBe(1);
  });

  it('needs the same repository, rule and file', () => {
    const lines = sourceWith(100, { 10: 'export function createProxy(base) {' });
    const [l] = parsed(label());
    expect(matchLabels([l], [finding(10, 20, { file: 'src/other.ts' })], () => lines).matches.size).toBe(0);
    expect(matchLabels([l], [finding(10, 20, { rule: 'code-smell/deep-nesting' })], () => lines).matches.size).toBe(0);
  });

  it('the nearest of equally good findings wins', () => {
    const lines = sourceWith(100, { 12: '  if (x == null) return 1', 40: '  if (x == null) return 1' });
    const [l] = parsed(label({ line: 38, hint: 'if (x == null)' }));
    const far = finding(12, 12);
    const near = finding(40, 40);
    expect(matchLabels([l], [far, near], () => lines).matches.get(l)).toBe(near);
    expect(matchLabels([l], [near, far], () => lines).matches.get(l)).toBe(near);
  });

  it('symbol and hint together beat one of them, however near', () => {
    const lines = sourceWith(100, { 60: 'export function createProxy(base) {' });
    const [l] = parsed(label({ line: 11, symbol: 'createProxy' }));
    const nearBySymbolOnly = finding(11, 20, { symbol: 'createProxy' });
    const farByBoth = finding(60, 90, { symbol: 'createProxy' });
    expect(matchLabels([l], [nearBySymbolOnly, farByBoth], () => lines).matches.get(l)).toBe(farByBoth);
  });

  it('one label per finding: a second label of the same finding is stale; two findings each get their nearest label', () => {
    const lines = sourceWith(100, { 20: '  if (x == null) return 1', 30: '  if (x == null) return 1' });
    const [a, b] = parsed(label({ line: 21, hint: 'if (x == null)' }), label({ line: 29, hint: 'if (x == null)', verdict: 'fp' }));
    const only = finding(20, 20);
    const one = matchLabels([a, b], [only], () => lines);
    expect(one.matches.get(a)).toBe(only);
    expect(one.stale).toEqual([b]);
    const other = finding(30, 30);
    const two = matchLabels([a, b], [other, only], () => lines);
    expect(two.matches.get(a)).toBe(only);
    expect(two.matches.get(b)).toBe(other);
    expect(two.labelOf.get(other)).toBe(b);
  });

  it('two findings on one line (two magic numbers) go to the labels with their titles', () => {
    const lines = sourceWith(100, { 30: '  const timeout = 60 * 1000' });
    const hint = 'const timeout = 60 * 1000';
    const [thousand, sixty] = parsed(label({ line: 30, hint, title: 'Magic number 1000', verdict: 'fp' }), label({ line: 30, hint, title: 'Magic number 60' }));
    const sixtyFinding = finding(30, 30, { title: 'Magic number 60' });
    const thousandFinding = finding(30, 30, { title: 'Magic number 1000' });
    const { matches } = matchLabels([thousand, sixty], [sixtyFinding, thousandFinding], () => lines);
    expect(matches.get(thousand)).toBe(thousandFinding);
    expect(matches.get(sixty)).toBe(sixtyFinding);
  });

  it('a label whose finding is gone is stale', () => {
    const lines = sourceWith(100, {});
    const [l] = parsed(label());
    expect(matchLabels([l], [finding(10, 20)], () => lines).stale).toEqual([l]);
  });
});

describe('precision and its interval', () => {
  it('Wilson 95 % interval agrees with published values', () => {
    const nineOfTen = wilsonInterval(9, 10)!;
    expect(nineOfTen.low).toBeCloseTo(0.5958, 4);
    expect(nineOfTen.high).toBeCloseTo(0.9821, 4);
    const none = wilsonInterval(0, 10)!;
    expect(none.low).toBe(0);
    expect(none.high).toBeCloseTo(0.2775, 4);
    const all = wilsonInterval(10, 10)!;
    expect(all.low).toBeCloseTo(0.7225, 4);
    expect(all.high).toBeLessThanOrEqual(1);
    expect(wilsonInterval(0, 0)).toBeNull();
  });

  it('debatable findings count against precision; high and critical rules need 95 %', () => {
    expect(precisionOf({ tp: 9, fp: 0, debatable: 1 }, 'medium')).toMatchObject({ labelled: 10, precision: 0.9, status: 'pass', bar: 0.9 });
    expect(precisionOf({ tp: 9, fp: 0, debatable: 1 }, 'high')).toMatchObject({ precision: 0.9, status: 'fail', bar: 0.95 });
    expect(precisionOf({ tp: 19, fp: 1, debatable: 0 }, 'critical')).toMatchObject({ precision: 0.95, status: 'pass' });
    expect(precisionOf({ tp: 0, fp: 0, debatable: 0 }, 'low')).toMatchObject({ labelled: 0, precision: null, interval: null, status: 'unmeasured' });
    expect(precisionBar('info')).toBe(0.9);
  });
});

describe('the labelling sample', () => {
  const many = Array.from({ length: 30 }, (_, i) => finding(10 * i + 1, 10 * i + 5, { title: `f${i}` }));
  const other = Array.from({ length: 5 }, (_, i) => finding(i + 1, i + 1, { repo: 'colinhacks/zod' }));

  it('takes up to 8 per rule and repository, the same ones whatever the input order', () => {
    const picked = pickSample([...many, ...other], () => false);
    expect(picked.filter((f) => f.repo === 'immerjs/immer')).toHaveLength(8);
    expect(picked.filter((f) => f.repo === 'colinhacks/zod')).toHaveLength(5);
    const reversed = pickSample([...other, ...many].reverse(), () => false);
    expect(reversed).toEqual(picked);
    const keys = picked.filter((f) => f.repo === 'immerjs/immer').map(sampleKey);
    expect(keys).toEqual([...keys].sort());
  });

  it('orders by a hash of repository, file and line, and tops a pair up to 8 around what is labelled', () => {
    expect(sampleKey(finding(5, 9))).toBe(sampleKey(finding(5, 40)));
    expect(sampleKey(finding(5, 9))).not.toBe(sampleKey(finding(6, 9)));
    const first = pickSample(many, () => false);
    const labelled = new Set(first.slice(0, 3));
    const next = pickSample(many, (f) => labelled.has(f));
    expect(next).toHaveLength(5);
    expect(next).toEqual(first.slice(3));
  });

  it("writes a stub with a hint from the finding's first line and 3-6 lines of context, which once filled in is a label matching its finding", () => {
    const lines = sourceWith(100, { 41: '', 42: '\texport function createProxy(base: object, parent?: State): Drafted {' });
    const f = finding(41, 80, { symbol: 'createProxy', title: 'createProxy has 120 lines of code (max 80)' });
    const stub = labelStub(f, lines);
    expect(stub.hint).toBe('export function createProxy(base: object, parent?: State): D');
    expect(stub.context.length).toBeGreaterThanOrEqual(3);
    expect(stub.context.length).toBeLessThanOrEqual(6);
    expect(stub.context[0]).toBe('   40| const filler40 = 40');
    expect(labelStub(finding(100, 100), lines).context.map((l: string) => l.slice(0, 5).trim())).toEqual(['98', '99', '100']);
    expect(labelStub(finding(50, 50), lines).context).toHaveLength(3);
    const { context: _context, ...filled } = { ...stub, verdict: 'tp', reason: 'a 120-line function doing three things' };
    const { labels, errors } = parseLabels(JSON.stringify(filled), FILE, known);
    expect(errors).toEqual([]);
    expect(matchLabels(labels, [f], () => lines).matches.get(labels[0])).toBe(f);
    const { labels: unfilled, errors: refused } = parseLabels(JSON.stringify(stub), FILE, known);
    expect(unfilled).toEqual([]);
    expect(refused[0]).toMatch(/"context" is for reading only.*"verdict" must be tp, fp or debatable \(got ""\).*"reason"/);
  });
});

describe('the README line', () => {
  const readme = '`code-smell/long-function` flags long functions.\n\n## What it finds\n\nLong ones.\n\n## Options\n\nNone.\n';

  it('says the measured figure, or that there is none yet', () => {
    const measured = { tp: 47, labelled: 50, ...precisionOf({ tp: 47, fp: 2, debatable: 1 }, 'medium') };
    expect(precisionLine(measured, '2026-11-28')).toBe(
      'Measured precision: 94 % (47/50 labelled findings, 95 % CI 84–98 %, panel of 2026-11-28; see docs/precision.md).',
    );
    const low = { tp: 8, ...precisionOf({ tp: 8, fp: 2, debatable: 0 }, 'high') };
    expect(precisionLine(low, '2026-11-28')).toBe(
      'Measured precision: 80 % (8/10 labelled findings, 95 % CI 49–94 %, panel of 2026-11-28; see docs/precision.md), below the 95 % bar.',
    );
    expect(precisionLine({ tp: 0, ...precisionOf({ tp: 0, fp: 0, debatable: 0 }, 'medium') }, '2026-11-28')).toBe(
      'Measured precision: not yet measured (no labelled findings on the panel of 2026-11-28).',
    );
  });

  it('goes before the first heading, adds no heading, and replaces itself on the next write', () => {
    const once = withPrecisionLine(readme, 'Measured precision: 50 % (1/2 labelled findings).');
    expect(once).toBe(
      '`code-smell/long-function` flags long functions.\n\nMeasured precision: 50 % (1/2 labelled findings).\n\n## What it finds\n\nLong ones.\n\n## Options\n\nNone.\n',
    );
    const twice = withPrecisionLine(once, 'Measured precision: 100 % (2/2 labelled findings).');
    expect(twice).toBe(once.replace('50 % (1/2', '100 % (2/2'));
    expect(twice.split('\n').filter((l) => /^#{1,6} /.test(l))).toEqual(['## What it finds', '## Options']);
  });
});

describe('the committed panel and labels', () => {
  const here = dirname(fileURLToPath(import.meta.url));
  const panel = JSON.parse(readFileSync(join(here, 'panel.json'), 'utf8'));

  it('pins each repository to a full commit, in a directory of its own, with its style', () => {
    expect(panel.repositories.length).toBeGreaterThanOrEqual(10);
    for (const entry of panel.repositories) {
      expect(entry.repo).toMatch(/^[\w.-]+\/[\w.-]+$/);
      expect(entry.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(['library', 'app', 'monorepo']).toContain(entry.style.kind);
      expect(['semi', 'no-semi']).toContain(entry.style.semicolons);
      expect(['ESM', 'CJS']).toContain(entry.style.modules);
      expect(['TS', 'JS']).toContain(entry.style.language);
    }
    const dirs = panel.repositories.map((r: { dir: string }) => r.dir);
    expect(new Set(dirs).size).toBe(dirs.length);
    const styles = (key: string) => new Set(panel.repositories.map((r: { style: Record<string, string> }) => r.style[key]));
    expect(styles('semicolons').size).toBe(2);
    expect(styles('modules').size).toBe(2);
  });

  it('counts labels of info findings as notes, apart from the bar', () => {
    const rules = new Map([['code-smell/long-function', { severity: 'info' }]]);
    const finding = (line: number, severity: string) => ({
      repo: 'immerjs/immer',
      rule: 'code-smell/long-function',
      file: 'src/a.ts',
      line,
      endLine: line,
      title: 't',
      severity,
    });
    const label = (line: number, verdict: string) => ({
      repo: 'immerjs/immer',
      rule: 'code-smell/long-function',
      file: 'src/a.ts',
      line,
      hint: 'x',
      verdict,
      reason: 'r',
    });
    const notesOnly = summariseRules({
      rules,
      keepRule: () => true,
      findings: [finding(1, 'info'), finding(9, 'info')],
      matches: new Map([
        [label(1, 'tp'), finding(1, 'info')],
        [label(9, 'debatable'), finding(9, 'info')],
      ]),
    });
    expect(notesOnly[0]).toMatchObject({ labelled: 0, status: 'notes', notes: { tp: 1, fp: 0, debatable: 1 }, infoFindings: 2 });
    expect(precisionLine(notesOnly[0], '2026-11-28')).toBe(
      'Measured precision: reported at `info` (notes that cost no points); reviewers agreed with 1 of 2 labelled findings on the panel of 2026-11-28 (see docs/precision.md).',
    );
    const mixed = summariseRules({
      rules,
      keepRule: () => true,
      findings: [finding(1, 'medium'), finding(9, 'info')],
      matches: new Map([
        [label(1, 'tp'), finding(1, 'medium')],
        [label(9, 'fp'), finding(9, 'info')],
      ]),
    });
    expect(mixed[0]).toMatchObject({ labelled: 1, tp: 1, fp: 0, precision: 1, notes: { tp: 0, fp: 1, debatable: 0 } });
  });

  it("reads a label file's family from its name, with an optional part after a dot", () => {
    expect(familyOfLabelFile('security.jsonl')).toBe('security');
    expect(familyOfLabelFile('code-smell.type-safety.jsonl')).toBe('code-smell');
    expect(familyOfLabelFile('code-smell-type-safety.jsonl')).toBe('code-smell-type-safety');
  });

  it("every label line is valid: a panel repository, a registered rule of the file's family, the required fields", () => {
    const rules = new Set(plugin.analyzers.flatMap((a) => a.rules.map((r) => `${a.id}/${r.meta.id}`)));
    const repos = new Set<string>(panel.repositories.map((r: { repo: string }) => r.repo));
    const labelsDir = join(here, 'labels');
    const errors: string[] = [];
    for (const name of existsSync(labelsDir) ? readdirSync(labelsDir).filter((n) => n.endsWith('.jsonl')) : []) {
      const family = familyOfLabelFile(name);
      errors.push(...parseLabels(readFileSync(join(labelsDir, name), 'utf8'), `test/precision/labels/${name}`, { repos, rules, family }).errors);
    }
    expect(errors).toEqual([]);
  });
});
