// The security rules on real code: no finding on rxjs and effect (this repository's: npm run self-check), the
// known issues and nothing else on knex, and known-vulnerable npm releases told apart from the
// releases that fixed them (CVE-2020-7598 minimist, CVE-2018-3750 deep-extend, CVE-2020-7788 ini,
// CVE-2017-16042 growl). Corpora come from `npm pack`, cached; offline runs skip with a warning.
import { createEngine, type Finding } from '@codehealth/engine';
import { beforeAll, describe, expect, it } from 'vitest';
import { obtainNpmPackage, obtainRxjs, type Corpus } from '../../../../test/helpers/corpora.js';
import { security } from './index.js';

type Engine = Awaited<ReturnType<typeof createEngine>>;
let engine: Engine;

beforeAll(async () => {
  engine = await createEngine({ plugins: [{ name: 'security-only', analyzers: [security] }], cacheDir: false, workers: 0 });
});

/** `rule path:line` per finding, sorted: compact enough to compare exactly. */
const summary = (findings: readonly Finding[]): string[] =>
  findings.map((f) => `${f.ruleId.replace('security/', '')} ${f.filePath}:${f.anchor.lineStart}`).sort();

async function analyzeCorpus(corpus: Corpus, skip: () => void): Promise<{ findings: Finding[]; files: number } | undefined> {
  if (corpus.error !== undefined) {
    console.warn(`SKIPPED: ${corpus.error}`);
    skip();
    return undefined;
  }
  const result = await engine.analyze(corpus.root);
  return { findings: result.findings, files: result.metrics.files.analysed };
}

describe('security analyzer on real code', () => {
  it('finds nothing in rxjs 7.8.2 (a library with no process, file, SQL or crypto sinks)', async (context) => {
    const result = await analyzeCorpus(obtainRxjs(), () => context.skip());
    if (!result) return;
    expect(result.files).toBeGreaterThan(200);
    expect(summary(result.findings)).toEqual([]);
  });

  it('finds nothing in effect 3.22.4 (235k lines; its one key-copy loop skips keys the target has)', async (context) => {
    const result = await analyzeCorpus(obtainNpmPackage('effect', '3.22.4', 'src/index.ts'), () => context.skip());
    if (!result) return;
    expect(result.files).toBeGreaterThan(300);
    expect(summary(result.findings)).toEqual([]);
  });

  it('finds in knex 3.1.0 the two unescaped splices into SQL and nothing in its query builder otherwise', async (context) => {
    const result = await analyzeCorpus(obtainNpmPackage('knex', '3.1.0'), () => context.skip());
    if (!result) return;
    expect(result.files).toBeGreaterThan(150);
    // No longer reported: scripts/build.js's exec(cmd) (a maintainer's build script), the stress
    // test's password for its localhost SQL Server, and the SHA-1 that shortens Oracle identifiers
    // (an identifier, not a security use).
    expect(summary(result.findings)).toEqual([
      'sql-injection lib/dialects/sqlite3/query/sqlite-querycompiler.js:230',
      'sql-injection lib/schema/tablecompiler.js:338',
    ]);
  });

  const releases: Array<[name: string, vulnerable: string, fixed: string, expected: string[]]> = [
    ['minimist', '1.2.0', '1.2.8', ['prototype-pollution index.js:72']],
    ['deep-extend', '0.5.0', '0.6.0', ['prototype-pollution lib/deep-extend.js:117']],
    ['ini', '1.3.5', '1.3.8', ['prototype-pollution ini.js:128']],
    ['growl', '1.9.2', '1.10.5', ['command-injection lib/growl.js:289']],
  ];
  for (const [name, vulnerable, fixed, expected] of releases) {
    it(`reports ${name}@${vulnerable} and not the fixed ${name}@${fixed}`, async (context) => {
      const before = await analyzeCorpus(obtainNpmPackage(name, vulnerable), () => context.skip());
      const after = await analyzeCorpus(obtainNpmPackage(name, fixed), () => context.skip());
      if (!before || !after) return;
      expect(summary(before.findings)).toEqual(expected);
      expect(summary(after.findings)).toEqual([]);
    });
  }
});
