// Workflow scenario of a repository that commits symbolic links to the server's own files: its config,
// manifests, tsconfig `extends`, licence, coverage report, SARIF log and an installed package point
// outside the checkout. Onboarding must read none of them and show none of their bytes: the config's
// refusal ends it `failed` with a reason that quotes nothing; with the config linked inside, the run
// completes and no result, event or stored error holds the outside files' marker.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { createGitRepo, type TestRepo } from '../helpers/git-repo.js';
import { SOURCES, type ScenarioContext } from './scenarios.js';

const MARKER = 'OUTSIDE-SECRET-e2e-4f1c';

/** The host's files an attacker links to, each with the marker in what a parser would surface. */
function writeOutsideFiles(dir: string): void {
  writeFileSync(join(dir, 'passwd'), `root:x:0:0:${MARKER}:/root:/bin/bash\n`);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: MARKER.toLowerCase(), license: MARKER, dependencies: { [MARKER.toLowerCase()]: '1' } }));
  writeFileSync(join(dir, 'tsconfig.base.json'), JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { [`${MARKER}/*`]: ['src/*'] } } }));
  writeFileSync(join(dir, 'LICENSE'), `${MARKER}\nPermission is hereby granted, free of charge, to any person obtaining a copy\n`);
  writeFileSync(join(dir, 'lcov.info'), `TN:${MARKER}\nSF:src/cart.ts\nDA:1,0\nDA:2,0\nDA:3,0\nLF:3\nLH:0\nend_of_record\n`);
  const result = {
    ruleId: MARKER,
    level: 'error',
    message: { text: MARKER },
    locations: [{ physicalLocation: { artifactLocation: { uri: 'src/cart.ts' }, region: { startLine: 1 } } }],
  };
  writeFileSync(
    join(dir, 'x.sarif'),
    JSON.stringify({ version: '2.1.0', runs: [{ tool: { driver: { name: MARKER, rules: [{ id: MARKER }] } }, results: [result] }] }),
  );
  mkdirSync(join(dir, 'pkg'));
  writeFileSync(join(dir, 'pkg', 'package.json'), JSON.stringify({ name: 'leak', version: '1.0.0', license: MARKER }));
}

function link(repo: TestRepo, path: string, target: string): void {
  mkdirSync(join(repo.root, path, '..'), { recursive: true });
  symlinkSync(target, join(repo.root, path));
}

export function hostileLinkScenarios(context: ScenarioContext): void {
  async function onboard(repo: TestRepo) {
    const projectId = await context.api.createProject(context.owner);
    const added = await context.api.request('POST', `/api/v1/projects/${projectId}/repos/add-public`, {
      key: context.owner.key,
      body: { url: `file://${repo.root}` },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    await context.engine.awaitIdle();
    const sessionId = added.body.onboarding_session_id as string;
    const [session] = await context.api.db.query<{ status: string; error: string | null }>('SELECT status, error FROM onboarding_sessions WHERE id = $1', [
      sessionId,
    ]);
    const events = await context.api.services.onboarding.events(sessionId);
    const stream = await context.api.request('GET', `/api/v1/onboarding/${sessionId}/events`, { key: context.owner.key });
    const assessments = await context.api.db.query<{ status: string; error: string | null }>(
      'SELECT status, error FROM health_assessments WHERE project_id = $1',
      [projectId],
    );
    const issues = await context.api.request('GET', `/api/v1/projects/${projectId}/analysis/issues?limit=200`, { key: context.owner.key });
    const repos = await context.api.request('GET', `/api/v1/projects/${projectId}/repos`, { key: context.owner.key });
    return { session: session!, events, stream: String(stream.body), assessments, issues: issues.body.issues as Array<{ rule_id: string }>, repos: repos.body };
  }

  it('never reads a file a repository links to outside its checkout: no byte of it in the failed event, nor in a completed run', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'codehealth-host-files-'));
    try {
      writeOutsideFiles(outside);

      // The config linked to a host file: onboarding fails, saying why and quoting nothing.
      const linkedConfig = createGitRepo(SOURCES);
      link(linkedConfig, 'codehealth.config.json', join(outside, 'passwd'));
      linkedConfig.commit('config');
      const failed = await onboard(linkedConfig);
      const reason = 'config codehealth.config.json: reached through a symbolic link that leads outside the repository; not read';
      expect(failed.session).toEqual({ status: 'failed', error: reason });
      expect(failed.events.at(-1)).toMatchObject({ type: 'failed', data: { message: reason } });
      expect(failed.assessments).toEqual([{ status: 'failed', error: reason }]);
      expect(failed.stream).toContain('event: failed');
      expect(JSON.stringify(failed)).not.toContain(MARKER);
      expect(JSON.stringify(failed)).not.toContain('root:x');

      // The config linked inside (it applies: run.ts is excluded), everything else linked out.
      const linkedRest = createGitRepo({
        'src/cart.ts': SOURCES['src/cart.ts'],
        'src/run.ts': SOURCES['src/run.ts'],
        // An installed dependency whose package is a link to a host directory: its licence must read as unknown.
        'package.json': JSON.stringify({ name: 'shop', version: '1.0.0', license: 'MIT', dependencies: { leak: '1' } }, null, 2),
        'config/codehealth.json': JSON.stringify({
          exclude: ['src/run.ts'],
          rules: { 'sarif-import/external-results': { options: { files: ['reports/x.sarif'] } } },
        }),
        'tsconfig.json': JSON.stringify({ extends: './tsconfig.base.json' }),
      });
      link(linkedRest, 'codehealth.config.json', 'config/codehealth.json');
      link(linkedRest, 'packages/evil/package.json', join(outside, 'package.json'));
      link(linkedRest, 'tsconfig.base.json', join(outside, 'tsconfig.base.json'));
      link(linkedRest, 'LICENSE', join(outside, 'LICENSE'));
      link(linkedRest, 'coverage/lcov.info', join(outside, 'lcov.info'));
      link(linkedRest, 'reports/x.sarif', join(outside, 'x.sarif'));
      link(linkedRest, 'node_modules/leak', join(outside, 'pkg'));
      linkedRest.commit('links');
      const completed = await onboard(linkedRest);
      expect(completed.session).toEqual({ status: 'completed', error: null });
      expect(completed.events.at(-1)).toMatchObject({ type: 'completed' });
      expect(completed.assessments).toEqual([{ status: 'completed', error: null }]);
      expect(completed.issues.map((i) => i.rule_id)).not.toContain('security/no-eval');
      expect(completed.issues.map((i) => [i.rule_id, (i as { title?: string }).title])).toContainEqual([
        'compliance/dependency-license',
        'Licence of dependency leak unknown (not installed)',
      ]);
      expect(JSON.stringify(completed)).not.toContain(MARKER);
      expect(JSON.stringify(completed).toLowerCase()).not.toContain(MARKER.toLowerCase());
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  }, 180_000);
}
