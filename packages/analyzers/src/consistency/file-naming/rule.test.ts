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
});
