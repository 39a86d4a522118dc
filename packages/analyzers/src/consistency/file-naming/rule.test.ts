import { describe, expect, it } from 'vitest';
import { analyzeWith, findingsOf, MiniRepo } from '../../shared/fixtures/mini-repo.js';
import { consistency } from '../index.js';

const RULE = 'consistency/file-naming';
const NAMES = [
  'user-store',
  'order-store',
  'http-client',
  'date-format',
  'retry-policy',
  'cache-key',
  'event-bus',
  'auth-token',
  'page-size',
  'error-map',
  'rule-set',
];
const kebabFiles = Object.fromEntries(NAMES.map((n) => [`src/${n}.ts`, 'export const value = 1;\n']));
/** A workspace package's 33 kebab-case files: against 7 camelCase ones elsewhere, 82.5 %, over the 80 % a report needs. */
const angularPackage = () => ({
  'packages/angular/package.json': JSON.stringify({ name: 'angular-q' }),
  ...Object.fromEntries(NAMES.flatMap((n) => ['', '-a', '-b'].map((suffix) => [`packages/angular/src/${n}${suffix}.ts`, 'export const value = 1;\n']))),
});

describe('consistency/file-naming', () => {
  it('reports a camelCase file among kebab-case ones, at line 1, with the renamed path', async () => {
    const repo = new MiniRepo({ ...kebabFiles, 'src/userProfile.service.ts': 'export const profile = 1;\n' });
    const result = await analyzeWith(consistency, repo.root);
    const findings = result.findings.filter((f) => f.ruleId === RULE);
    expect(findings.map((f) => [f.filePath, f.anchor.lineStart, f.title, f.severity])).toEqual([
      ['src/userProfile.service.ts', 1, 'File name userProfile.service.ts is camelCase, not kebab-case', 'info'],
    ]);
    expect(findings[0].description).toBe(
      'src/userProfile.service.ts is named in camelCase, while 91.7% (11 of 12) of the source files in this repository are named in kebab-case; ' +
        'following it, the file would be user-profile.service.ts.',
    );
    expect(result.conventions.find((c) => c.name === 'file-naming')).toEqual({
      name: 'file-naming',
      consistency: 91.7,
      dominantValue: 'kebab-case',
      totalCount: 12,
      deviationCount: 1,
      values: { 'kebab-case': 11, camelCase: 1 },
    });
  });

  it('takes the convention from production code and judges it only: scripts, examples and benchmarks keep their own style', async () => {
    const repo = new MiniRepo({
      ...kebabFiles,
      'scripts/buildDocs.ts': 'export const a = 1;\n',
      'examples/todoApp.ts': 'export const b = 1;\n',
      'bench/parseLarge.ts': 'export const c = 1;\n',
      'src/userProfile.ts': 'export const d = 1;\n',
    });
    const result = await analyzeWith(consistency, repo.root);
    // Before roles, the three files outside src/ were reported too, and counted in the convention.
    expect(findingsOf(result, RULE)).toEqual(['src/userProfile.ts:1 File name userProfile.ts is camelCase, not kebab-case']);
    expect(result.conventions.find((c) => c.name === 'file-naming')).toMatchObject({ totalCount: 12, deviationCount: 1 });
  });

  it('accepts single words, index files, routing names and files named after their export', async () => {
    const repo = new MiniRepo({
      ...kebabFiles,
      'src/index.ts': 'export {};\n',
      'src/utils.ts': 'export const a = 1;\n',
      'src/pages/[id].ts': 'export const b = 1;\n',
      'src/UserCard.ts': 'export class UserCard {}\n',
      'src/mergeMap.ts': 'export function mergeMap() {}\n',
      'src/user-store.test.ts': 'export const c = 1;\n',
      'src/helperThing.test.ts': 'export const d = 1;\n',
    });
    const result = await analyzeWith(consistency, repo.root);
    expect(findingsOf(result, RULE)).toEqual([]);
    expect(result.conventions.find((c) => c.name === 'file-naming')).toMatchObject({ totalCount: 13, consistency: 100 });
  });

  it('does not report files that follow the clear convention of their own directory', async () => {
    const internal = Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [`src/internal/state${String.fromCharCode(65 + (i % 26))}${i}.ts`, 'export const x = 1;\n']),
    );
    const modules = Object.fromEntries(
      ['Effect', 'Stream', 'Channel', 'Schema', 'Layer', 'HashMap', 'HKT'].map((n) => [`src/${n}.ts`, 'export const y = 1;\n']),
    );
    const repo = new MiniRepo({ ...internal, ...modules, 'src/internal/core-stream.ts': 'export const z = 1;\n' });
    const result = await analyzeWith(consistency, repo.root);
    // src/ keeps PascalCase (HKT.ts, an acronym, fits it); src/internal/ keeps camelCase, which core-stream.ts breaks.
    expect(findingsOf(result, RULE)).toEqual(['src/internal/core-stream.ts:1 File name core-stream.ts is kebab-case, not camelCase']);
    // The PascalCase modules still count against the repository: 40 of 48 files are camelCase.
    expect(result.conventions.find((c) => c.name === 'file-naming')).toMatchObject({
      dominantValue: 'camelCase',
      consistency: 83.3,
      totalCount: 48,
      values: { camelCase: 40, PascalCase: 6, UPPER_SNAKE: 1, 'kebab-case': 1 },
    });
  });

  it('judges .tsx/.jsx files among themselves: PascalCase components next to kebab-case modules', async () => {
    const components = Object.fromEntries(
      ['UserCard', 'OrderList', 'NavBar', 'SideMenu', 'LoginForm', 'AppShell', 'PriceTag', 'CartIcon', 'ErrorPage', 'HelpText'].map((n) => [
        `src/components/${n}.tsx`,
        'export default function View() { return <div />; }\n',
      ]),
    );
    const repo = new MiniRepo({ ...kebabFiles, ...components, 'src/components/search-box.tsx': 'export default () => <input />;\n' });
    const result = await analyzeWith(consistency, repo.root);
    expect(findingsOf(result, RULE)).toEqual(['src/components/search-box.tsx:1 File name search-box.tsx is kebab-case, not PascalCase']);
    expect(result.conventions.map((c) => [c.name, c.dominantValue, c.totalCount])).toEqual(
      expect.arrayContaining([
        ['file-naming', 'kebab-case', 11],
        ['jsx-file-naming', 'PascalCase', 11],
      ]),
    );
  });

  it('lets a workspace package keep its own style, and still reports an outlier inside a package', async () => {
    const camel = ['useQuery', 'queryClient', 'queryCache', 'mutationCache', 'focusManager', 'onlineManager'];
    const kebab = angularPackage();
    const repo = new MiniRepo({
      'package.json': JSON.stringify({ name: 'mono', private: true, workspaces: ['packages/*'] }),
      ...kebab,
      'packages/angular/src/injectQuery.ts': 'export const q = 1;\n',
      'packages/vue/package.json': JSON.stringify({ name: 'vue-q' }),
      // Spread over directories of fewer than 5 files each: only the package shows the convention.
      ...Object.fromEntries(camel.map((n, i) => [`packages/vue/src/${i % 2 ? 'core' : 'hooks'}/${n}.ts`, 'export const value = 1;\n'])),
    });
    const result = await analyzeWith(consistency, repo.root);
    expect(findingsOf(result, RULE)).toEqual(['packages/angular/src/injectQuery.ts:1 File name injectQuery.ts is camelCase, not kebab-case']);
  });

  it("counts files named after their export as evidence of their package's style, without judging them", async () => {
    const kebab = angularPackage();
    const named = ['useQuery', 'useMutation', 'useIsFetching', 'queryOptions'];
    const repo = new MiniRepo({
      ...kebab,
      'packages/react/package.json': JSON.stringify({ name: 'react-q' }),
      ...Object.fromEntries(named.map((n) => [`packages/react/src/${n}.ts`, `export function ${n}() {}\n`])),
      // Named after nothing they export: judged, and camelCase like the package's other files.
      'packages/react/src/errorBoundaryUtils.ts': 'export const reset = 1;\n',
      'packages/react/src/suspenseHelpers.ts': 'export const suspend = 1;\n',
    });
    const result = await analyzeWith(consistency, repo.root);
    expect(findingsOf(result, RULE)).toEqual([]);
    // The repository's convention still counts the judged files only.
    expect(result.conventions.find((c) => c.name === 'file-naming')).toMatchObject({ dominantValue: 'kebab-case', totalCount: 35, deviationCount: 2 });
  });

  it('takes a CommonJS module named after the class it exports as named after its export', async () => {
    const repo = new MiniRepo({
      ...Object.fromEntries(NAMES.map((n) => [`lib/${n}.js`, 'module.exports = { value: 1 };\n'])),
      'lib/Seeder.js': 'class Seeder {\n  run() {}\n}\nmodule.exports = Seeder;\n',
      'lib/MigrationGenerator.js': 'function MigrationGenerator() {}\nmodule.exports = MigrationGenerator;\n',
      // Named after nothing it declares or exports: judged.
      'lib/migrationsLister.js': 'class Lister {}\nmodule.exports = Lister;\n',
    });
    const result = await analyzeWith(consistency, repo.root);
    expect(findingsOf(result, RULE)).toEqual(['lib/migrationsLister.js:1 File name migrationsLister.js is camelCase, not kebab-case']);
  });

  it('does not judge a file named by a language tag (fr-CA, zh-Hant-TW, es-419)', async () => {
    const repo = new MiniRepo({
      ...kebabFiles,
      'src/locales/fr-CA.ts': 'export default {};\n',
      'src/locales/zh-Hant-TW.ts': 'export default {};\n',
      'src/locales/es-419.ts': 'export default {};\n',
      'src/locales/enUS.ts': 'export default {};\n',
    });
    const result = await analyzeWith(consistency, repo.root);
    expect(findingsOf(result, RULE)).toEqual(['src/locales/enUS.ts:1 File name enUS.ts is camelCase, not kebab-case']);
  });
});
