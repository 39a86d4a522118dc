// What installing each package of this repository pulls in: its runtime dependency closure
// (dependencies and optionalDependencies, recursively, as npm would install them) counted in
// packages and megabytes on disk, read from the installed node_modules (no network). A workspace
// package counts what it publishes (its package.json `files`); a registry package its whole folder
// without nested node_modules. Run `npm ci` (and `npm run build` for the workspaces' dist) first.
//
//   npm run footprint                 every workspace package
//   npm run footprint -- --deps       each also with what its direct dependencies pull in
//   npm run footprint -- --json       machine-readable
//   npm run footprint -- --without openai,ioredis   as if those direct dependencies were gone
//                                     (what a package would install once they move elsewhere)
import { existsSync, lstatSync, readFileSync, readdirSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const args = new Set(argv);
const withoutAt = argv.indexOf('--without');
const without = new Set(withoutAt === -1 ? [] : (argv[withoutAt + 1] ?? '').split(',').filter(Boolean));
const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));

/** Bytes of the files under `path` (symbolic links not followed); `skip` names folders to leave out. */
function bytesOf(path, skip = new Set()) {
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (!stat || stat.isSymbolicLink()) return 0;
  if (!stat.isDirectory()) return stat.size;
  let total = 0;
  for (const name of readdirSync(path)) if (!skip.has(name)) total += bytesOf(join(path, name), skip);
  return total;
}

/** The folder Node's resolution finds for `name` from `fromDir` (a node_modules folder up the tree). */
function locate(name, fromDir) {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name, 'package.json');
    if (existsSync(candidate)) return realpathSync(dirname(candidate));
    if (dirname(dir) === dir) return undefined;
  }
}

const isWorkspace = (dir) => !dir.split('/').includes('node_modules');

/** What a package puts on disk when installed. */
function installedBytes(dir) {
  if (!isWorkspace(dir)) return bytesOf(dir, new Set(['node_modules']));
  const manifest = readJson(join(dir, 'package.json'));
  const files = manifest.files ?? ['.'];
  return bytesOf(join(dir, 'package.json')) + files.reduce((sum, entry) => sum + bytesOf(join(dir, entry), new Set(['node_modules'])), 0);
}

/** Runtime dependency closure of the package at `dir`: Map<folder, {name, version, bytes}>; missing names apart. */
function closureOf(dir, seen = new Map(), missing = new Set()) {
  if (seen.has(dir)) return { seen, missing };
  const manifest = readJson(join(dir, 'package.json'));
  seen.set(dir, { name: manifest.name, version: manifest.version, bytes: installedBytes(dir) });
  const first = seen.size === 1;
  const names = Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies }).filter((name) => !(first && without.has(name)));
  for (const name of names) {
    const found = locate(name, dir);
    if (found) closureOf(found, seen, missing);
    else if (!manifest.optionalDependencies?.[name]) missing.add(name);
  }
  return { seen, missing };
}

/** The database, cache, graph, model and code-host clients (the service's adapters load them; the engine must not install them). */
const ADAPTER_CLIENTS = /^(@electric-sql\/pglite|postgres|ioredis|neo4j-driver|openai|@octokit\/rest)$/;

const mb = (bytes) => (bytes / 1e6).toFixed(1);
const workspaces = readJson(join(root, 'package.json'))
  .workspaces.map((w) => join(root, w))
  .filter((dir) => existsSync(join(dir, 'package.json')));
const report = [];
for (const dir of workspaces) {
  const manifest = readJson(join(dir, 'package.json'));
  if (manifest.private && !manifest.name.startsWith('@codehealth/')) continue;
  const { seen, missing } = closureOf(realpathSync(dir));
  const others = [...seen.values()].slice(1);
  const entry = {
    name: manifest.name,
    packages: others.length,
    megabytes: Number(mb([...seen.values()].reduce((sum, p) => sum + p.bytes, 0))),
    ownMegabytes: Number(mb([...seen.values()][0].bytes)),
    missing: [...missing],
    adapterClients: [...new Set([...seen.values()].map((p) => p.name).filter((name) => ADAPTER_CLIENTS.test(name)))].sort(),
    dependencies: Object.keys(manifest.dependencies ?? {})
      .filter((name) => !without.has(name))
      .map((name) => {
        const found = locate(name, realpathSync(dir));
        if (!found) return { name, packages: 0, megabytes: 0 };
        const sub = [...closureOf(found).seen.values()];
        return { name, packages: sub.length, megabytes: Number(mb(sub.reduce((sum, p) => sum + p.bytes, 0))) };
      }),
  };
  report.push(entry);
}

if (args.has('--json')) {
  console.log(JSON.stringify(report, null, 2));
} else {
  console.log('package                 installs  packages        MB   (own MB)   adapter clients');
  for (const entry of report) {
    console.log(
      `${entry.name.padEnd(24)}          ${String(entry.packages).padStart(8)}  ${entry.megabytes.toFixed(1).padStart(8)}   (${entry.ownMegabytes.toFixed(1)})   ${entry.adapterClients.length ? entry.adapterClients.join(', ') : 'none'}${entry.missing.length ? `   not installed: ${entry.missing.join(', ')}` : ''}`,
    );
    if (args.has('--deps')) {
      for (const dep of [...entry.dependencies].sort((a, b) => b.megabytes - a.megabytes)) {
        console.log(
          `    ${dep.name.padEnd(28)} ${String(dep.packages).padStart(4)} packages ${dep.megabytes.toFixed(1).padStart(8)} MB (itself and what it pulls in)`,
        );
      }
    }
  }
  console.log('\npackages: the other packages installing it pulls in; MB: all of them on disk with the package itself (dist and src as published);');
  console.log('adapter clients: the database, cache, graph, model and code-host clients among them (@codehealth/engine must have none).');
  if (without.size) console.log(`As if these direct dependencies were gone: ${[...without].join(', ')}.`);
}
