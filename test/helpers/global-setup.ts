// globalSetup of the integration and e2e projects (vitest.config.ts): migrates the test database
// templates once per run — a PGlite dump and, with TEST_DATABASE_URL, a Postgres template database —
// and names them in the environment the test processes inherit. Every createTestDatabase (and so
// createTestApi) still gets a fresh database of its own, copied from the template.
import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareTestTemplates } from '@codehealth/service';

export default async function setup(): Promise<() => Promise<void>> {
  const started = Date.now();
  const dir = mkdtempSync(join(tmpdir(), 'codehealth-test-templates-'));
  const templates = await prepareTestTemplates(join(dir, 'pglite-migrated.tar'));
  Object.assign(process.env, templates.env);
  console.log(`test database templates migrated once in ${((Date.now() - started) / 1000).toFixed(1)} s: ${Object.keys(templates.env).join(', ')}`);
  return async () => {
    await templates.dispose();
    rmSync(dir, { recursive: true, force: true });
  };
}
