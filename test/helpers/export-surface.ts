// A package entry's public surface as one line per runtime export, `name: kind`, sorted by name; the
// kind is `typeof` the value, with `class` told apart from `function`. Export-snapshot tests
// compare it with a committed snapshot, so that the surface changes only on purpose
// (`npx vitest run <test file> -u` rewrites the snapshot — the file first: `-u <file>` would take the file for its value and run every test; the diff is then reviewed like code).

/** `typeof value`, or `class` for a class. */
export function exportKind(value: unknown): string {
  if (typeof value === 'function' && /^class\b/.test(Function.prototype.toString.call(value))) return 'class';
  return typeof value;
}

/** The module's exports as sorted `name: kind` lines. */
export function exportSurface(mod: object): string {
  return Object.keys(mod)
    .sort()
    .map((name) => `${name}: ${exportKind((mod as Record<string, unknown>)[name])}`)
    .join('\n');
}
