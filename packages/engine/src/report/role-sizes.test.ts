// The reports show the lines of code of each role, and the JSON report each issue's role.
import { describe, expect, it } from 'vitest';
import { FILE_ROLES, type FileRole } from '../domain/types.js';
import type { RoleSize } from '../pipeline/types.js';
import { makeAssessmentResult, makeFinding, makeMetrics } from './fixtures/assessment-result.js';
import { toJsonReport } from './json.js';
import { renderMarkdown } from './markdown.js';
import { renderText } from './text.js';

function rolesOf(sizes: Partial<Record<FileRole, RoleSize>>): Record<FileRole, RoleSize> {
  return Object.fromEntries(FILE_ROLES.map((role) => [role, sizes[role] ?? { files: 0, linesOfCode: 0 }])) as Record<FileRole, RoleSize>;
}

describe('lines of code by role in the reports', () => {
  const roles = rolesOf({
    production: { files: 120, linesOfCode: 9800 },
    test: { files: 40, linesOfCode: 4321 },
    benchmark: { files: 6, linesOfCode: 1500 },
    docs: { files: 30, linesOfCode: 0 },
    tooling: { files: 12, linesOfCode: 245 },
  });
  const findings = [
    makeFinding({ filePath: 'src/cart.ts', role: 'production' }),
    makeFinding({ filePath: 'bench/cart.bench.ts', title: 'Magic number', role: 'benchmark' }),
    makeFinding({ filePath: 'src/legacy.ts', title: 'Before roles' }),
  ];
  const result = makeAssessmentResult({ metrics: makeMetrics({ roles }), findings });

  it('text: one line of the roles that have code, in role order', () => {
    expect(renderText(result)).toContain('Roles    production 9,800 · test 4,321 · benchmark 1,500 · tooling 245 (lines of code)');
  });

  it('Markdown: a table of every role that has files', () => {
    const markdown = renderMarkdown(result);
    const start = markdown.indexOf('### Roles');
    expect(start).toBeGreaterThan(0);
    const rows = markdown.slice(start).split('\n').slice(4, 9);
    expect(rows).toEqual(['| production | 120 | 9,800 |', '| test | 40 | 4,321 |', '| benchmark | 6 | 1,500 |', '| docs | 30 | 0 |', '| tooling | 12 | 245 |']);
  });

  it('JSON: files and lines of every role, and each issue with its role (production when the finding has none)', () => {
    const report = toJsonReport(result);
    expect(report.metrics.roles).toEqual({
      production: { files: 120, lines_of_code: 9800 },
      test: { files: 40, lines_of_code: 4321 },
      fixture: { files: 0, lines_of_code: 0 },
      benchmark: { files: 6, lines_of_code: 1500 },
      example: { files: 0, lines_of_code: 0 },
      docs: { files: 30, lines_of_code: 0 },
      tooling: { files: 12, lines_of_code: 245 },
      generated: { files: 0, lines_of_code: 0 },
      vendored: { files: 0, lines_of_code: 0 },
    });
    expect(Object.fromEntries(report.issues.map((i) => [i.file_path, i.file_role]))).toEqual({
      'src/cart.ts': 'production',
      'bench/cart.bench.ts': 'benchmark',
      'src/legacy.ts': 'production',
    });
  });

  it('says nothing of roles for a result made before roles were classified', () => {
    const before = makeAssessmentResult();
    expect(renderText(before)).not.toContain('Roles    ');
    expect(renderMarkdown(before)).not.toContain('### Roles');
    expect(toJsonReport(before).metrics.roles).toBeNull();
  });
});
