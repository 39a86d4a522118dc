import { describe, expect, it } from 'vitest';
import { validateConfig } from './load-config.js';

describe('configSchema globs', () => {
  it('accepts `tests` and `generated` globs the linear-time matcher runs, extglobs included', () => {
    const config = validateConfig(
      { tests: ['*.it.ts', 'src/**/!(*.d).ts', '@(qa|e2e)/**'], generated: ['**/*.pb.ts', `${'*?'.repeat(500)}Z`] },
      'codehealth.config.json',
    );
    expect(config.tests).toHaveLength(3);
    expect(config.generated).toHaveLength(2);
  });

  it('refuses a glob it would have to backtrack for, naming it', () => {
    expect(() => validateConfig({ generated: ['{a,b}\\1.ts'] }, 'codehealth.config.json')).toThrow(
      /invalid config codehealth\.config\.json: .*glob "\{a,b\}\\\\1\.ts" uses backreferences, which the linear-time matcher does not support/,
    );
  });

  it('accepts `roles` globs for the roles a repository may set, and refuses the others', () => {
    const config = validateConfig({ roles: { benchmark: ['perf-measures/**'], production: ['scripts/shipped/**'] } }, 'codehealth.config.json');
    expect(Object.keys(config.roles ?? {})).toEqual(['benchmark', 'production']);
    expect(() => validateConfig({ roles: { generated: ['src/proto/**'] } }, 'codehealth.config.json')).toThrow(/roles/);
    expect(() => validateConfig({ roles: { benchmark: ['{a,b}\\1.ts'] } }, 'codehealth.config.json')).toThrow(/backreferences/);
  });
});
