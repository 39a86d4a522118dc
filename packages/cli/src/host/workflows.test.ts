// The activity side of a host as it starts: checkouts a stopped process left in the work
// directory are removed before any run, and the log says so; a fresh one may be in use and stays.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, JobQueueWorkflowStarter, Services, staticCodeHosts, type TestDatabase } from '@codehealth/service';
import { activitiesFor } from './workflows.js';

describe('activities of a starting host', () => {
  let test: TestDatabase;
  const workDir = mkdtempSync(join(tmpdir(), 'codehealth-host-work-'));
  beforeAll(async () => {
    test = await createTestDatabase('pglite');
  });
  afterAll(async () => {
    await test?.dispose();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('removes the checkouts a stopped process left behind before any run', async () => {
    const checkouts = join(workDir, 'repos', 'checkouts');
    const checkout = (name: string, ageMs: number) => {
      const path = join(checkouts, name);
      mkdirSync(join(path, 'src'), { recursive: true });
      writeFileSync(join(path, 'src', 'a.ts'), 'export {};\n');
      const when = new Date(Date.now() - ageMs);
      utimesSync(path, when, when);
      return path;
    };
    // Left by a version that wrote no owner records, a day ago; and one of a moment ago (kept: its owner may be running).
    const old = checkout('0f0f0f0f-abc123', 86_400_000);
    const recent = checkout('0f0f0f0f-def456', 1_000);

    const db = test.db;
    const services = new Services({ db, workflows: new JobQueueWorkflowStarter(db), codeHosts: staticCodeHosts([]) });
    const lines: string[] = [];
    const activities = await activitiesFor(services, { workDir, allowLocalRepos: true, log: (line) => lines.push(line) });
    expect(typeof activities.assessHealth).toBe('function');
    expect(existsSync(old)).toBe(false);
    expect(existsSync(recent)).toBe(true);
    expect(lines).toEqual(['checkouts: removed 1 left behind by a stopped process']);
  });
});
