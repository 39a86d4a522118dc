// An installed @codehealth/service migrates from its own folder (issue 19): the engine and the
// service are packed with `npm pack` (what a registry would publish) and unpacked into a fresh
// project's node_modules, as npm installs them; their third-party dependencies are linked from this
// repository's install (the test runs offline). The migration entry then runs against a PGlite
// directory from that project: the migrations it applies are the packed ones, found beside the
// installed package, not in this repository. Needs the packages built (`npm run build`: dist).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const packageDir = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const engineDir = resolve(packageDir, '../engine');
const repoRoot = resolve(packageDir, '../..');
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));
const work = mkdtempSync(join(tmpdir(), 'codehealth-installed-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** `npm pack`s the package at `dir` and unpacks it to `node_modules/<name>` of `project`. */
function install(dir: string, project: string): string {
  const [{ filename }] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: dir, encoding: 'utf8' }));
  const target = join(project, 'node_modules', readJson(join(dir, 'package.json')).name);
  mkdirSync(target, { recursive: true });
  execFileSync('tar', ['-xzf', join(work, filename), '-C', target, '--strip-components=1']);
  return target;
}

describe('@codehealth/service installed from its packed tarball', () => {
  it('lists its migrations in `files` and runs them from its own folder against a PGlite directory', () => {
    expect(existsSync(join(packageDir, 'dist/index.js')), 'build the packages first (npm run build)').toBe(true);
    const manifest = readJson(join(packageDir, 'package.json'));
    expect(manifest.files).toContain('migrations');

    const project = join(work, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'probe', private: true, type: 'module' }));
    install(engineDir, project);
    const installed = install(packageDir, project);
    // Third-party dependencies (not ours: those are the packed copies) from this repository's install.
    const dependencies = new Set(
      [manifest, readJson(join(engineDir, 'package.json'))]
        .flatMap((m) => Object.keys(m.dependencies ?? {}))
        .filter((name) => !name.startsWith('@codehealth/')),
    );
    for (const name of dependencies) {
      const link = join(project, 'node_modules', name);
      mkdirSync(dirname(link), { recursive: true });
      symlinkSync(realpathSync(join(repoRoot, 'node_modules', name)), link);
    }
    const packed = readdirSync(join(installed, 'migrations')).filter((f) => f.endsWith('.sql'));
    expect(packed.sort()).toEqual(
      readdirSync(join(packageDir, 'migrations'))
        .filter((f) => f.endsWith('.sql'))
        .sort(),
    );

    const script = `
      import { PgliteDatabase, migrateUp, migrationStatus, DEFAULT_MIGRATIONS_DIR } from '@codehealth/service';
      const db = await PgliteDatabase.open(process.argv[1]);
      const applied = await migrateUp(db);
      const again = await migrateUp(db);
      const status = await migrationStatus(db);
      await db.close();
      console.log(JSON.stringify({ dir: DEFAULT_MIGRATIONS_DIR, applied, again, pending: status.filter((s) => !s.appliedAt).length }));
    `;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script, join(work, 'pglite')], { cwd: project, encoding: 'utf8' });
    const result = JSON.parse(out.trim().split('\n').pop()!);
    expect(realpathSync(result.dir)).toBe(realpathSync(join(installed, 'migrations')));
    expect(result.applied).toEqual(packed.map((f) => f.slice(0, 4)).sort());
    expect(result.again).toEqual([]);
    expect(result.pending).toBe(0);
  });
});
