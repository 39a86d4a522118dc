// The built-in analyzers take what they need at run time from `@codehealth/engine/kit`, not from
// the engine's root: every worker thread of an assessment loads them, and the root brings the
// engine's hosts along (dependency injection, the configuration loader, reports, caches: ~130 ms of
// start-up per thread on the large corpus' machine).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = fileURLToPath(new URL('.', import.meta.url));
const built = fileURLToPath(new URL('../dist/index.js', import.meta.url));

/** Production modules: not tests, not test fixtures. */
function productionModules(): string[] {
  return (readdirSync(src, { recursive: true }) as string[])
    .filter((p) => p.endsWith('.ts') && !p.endsWith('.test.ts') && !p.split('/').includes('fixtures'))
    .map((p) => join(src, p));
}

/** The URLs a fresh node process loads when it imports `entry`, reported by a module hook. */
function modulesLoadedBy(entry: string): string[] {
  const hooks = `export async function load(url, context, next) { if (url.startsWith('file:')) process.stderr.write(url + '\\n'); return next(url, context); }`;
  const script = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)}); await import(${JSON.stringify(entry)});`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(child.status, child.stderr).toBe(0);
  return child.stderr.split('\n').filter((line) => line.startsWith('file:'));
}

describe('the analyzers and the engine', () => {
  it('import values from @codehealth/engine/kit only (types may come from the root)', () => {
    const offenders = productionModules().filter((path) => /^import (?!type )[^;]*from '@codehealth\/engine';/m.test(readFileSync(path, 'utf8')));
    expect(offenders).toEqual([]);
    expect(productionModules().length).toBeGreaterThan(100);
  });

  it.skipIf(!existsSync(built))('load without the engine root, its dependency injection or its configuration loader', () => {
    const loaded = modulesLoadedBy(built);
    expect(loaded.some((url) => url.endsWith('/engine/dist/kit.js'))).toBe(true);
    expect(
      loaded.filter((url) => /\/engine\/dist\/(index|di\/create-engine|config\/load-config)\.js$/.test(url) || url.includes('/node_modules/tsyringe/')),
    ).toEqual([]);
  });
});
