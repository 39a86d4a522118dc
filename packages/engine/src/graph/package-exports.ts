// package.json `exports` / `imports` maps: which targets a subpath may load, best first.
// Follows Node's PACKAGE_EXPORTS_RESOLVE (exact keys, then `*` patterns by longest prefix, then
// legacy folder keys) except for conditions: every condition we accept is tried in OUR order
// of preference, so a `source` or `types` target wins over `default` whatever the key order.
import { isObject } from './file-probe.js';

/** Conditions in order of preference: TS sources and declarations map back to the code we analyse. */
export const DEFAULT_CONDITIONS = ['source', 'types', 'import', 'module', 'node', 'require', 'default'];

/**
 * Targets (`./dist/x.js`, or bare specifiers in an `imports` map) for `subpath` (`.`, `./x`,
 * `#x`), in the order they should be tried; empty when the map does not expose the subpath.
 */
export function mapTargets(field: unknown, subpath: string, conditions: readonly string[] = DEFAULT_CONDITIONS): string[] {
  const shape = subpathMapOf(field);
  if (!shape) return [];
  const { map } = shape;
  const exact = map[subpath];
  if (exact !== undefined && !subpath.includes('*')) return expand(exact, undefined, conditions);
  // The best pattern: the least under PATTERN_KEY_COMPARE (two matching keys never tie: the same
  // prefix length and key length would make them the same key).
  let best: PatternKey | undefined;
  let firstMatch = Number.POSITIVE_INFINITY;
  for (const length of shape.prefixLengths) {
    if (length > subpath.length) continue;
    const bucket = shape.patterns.get(subpath.slice(0, length));
    if (bucket === undefined) continue;
    for (const pattern of bucket) {
      if (subpath.length < pattern.key.length - 1 || !subpath.endsWith(pattern.suffix)) continue;
      firstMatch = Math.min(firstMatch, pattern.order);
      if (best === undefined || comparePatternKeys(pattern.key, best.key) < 0) best = pattern;
    }
  }
  // Deprecated folder mapping (`"./lib/": "./dist/lib/"`): Node takes it when it comes before every matching pattern.
  for (const folder of shape.folders) {
    if (folder.order > firstMatch) break;
    if (!subpath.startsWith(folder.key)) continue;
    const target = map[folder.key];
    if (typeof target === 'string') return [target + subpath.slice(folder.key.length)];
  }
  if (best === undefined) return [];
  return expand(map[best.key], subpath.slice(best.prefix.length, subpath.length - best.suffix.length), conditions);
}

interface PatternKey {
  key: string;
  prefix: string;
  suffix: string;
  /** Position among the map's pattern and folder keys (a folder key before it wins). */
  order: number;
}

interface SubpathMap {
  map: Record<string, unknown>;
  /**
   * Pattern (`*`) keys by their prefix before the `*`, and the lengths of those prefixes: a subpath
   * is looked up once per prefix length instead of compared with every key (the dead-code model
   * asks a package.json with hundreds of patterns about tens of thousands of subpaths).
   */
  patterns: Map<string, PatternKey[]>;
  prefixLengths: number[];
  /** Folder (`/`-ending) keys in map order. */
  folders: Array<{ key: string; order: number }>;
}

/**
 * Manifests are parsed JSON that nobody changes, and a large `exports` or `imports` map (hundreds
 * of subpaths) is consulted once per import of the package: its shape is worked out once.
 */
const shapes = new WeakMap<object, SubpathMap | undefined>();

function subpathMapOf(field: unknown): SubpathMap | undefined {
  if (!isObject(field)) return shapeOf(asSubpathMap(field));
  if (!shapes.has(field)) shapes.set(field, shapeOf(asSubpathMap(field)));
  return shapes.get(field);
}

function shapeOf(map: Record<string, unknown> | undefined): SubpathMap | undefined {
  if (!map) return undefined;
  const patterns = new Map<string, PatternKey[]>();
  const lengths = new Set<number>();
  const folders: SubpathMap['folders'] = [];
  let order = 0;
  for (const key of Object.keys(map)) {
    const star = key.indexOf('*');
    if (star >= 0) {
      const prefix = key.slice(0, star);
      const bucket = patterns.get(prefix);
      const pattern = { key, prefix, suffix: key.slice(star + 1), order: order++ };
      if (bucket) bucket.push(pattern);
      else patterns.set(prefix, [pattern]);
      lengths.add(prefix.length);
    } else if (key.endsWith('/')) {
      folders.push({ key, order: order++ });
    }
  }
  return { map, patterns, prefixLengths: [...lengths], folders };
}

/** `exports: "./x.js"`, an array, or a condition object all stand for the `.` subpath. */
function asSubpathMap(field: unknown): Record<string, unknown> | undefined {
  if (typeof field === 'string' || Array.isArray(field)) return { '.': field };
  if (!isObject(field)) return undefined;
  const keys = Object.keys(field);
  const isSubpathMap = keys.length > 0 && keys.every((k) => k.startsWith('.') || k.startsWith('#'));
  return isSubpathMap ? field : { '.': field };
}

/** Node's PATTERN_KEY_COMPARE: the longer prefix before `*` wins, then the longer key. */
function comparePatternKeys(a: string, b: string): number {
  const baseA = a.indexOf('*');
  const baseB = b.indexOf('*');
  if (baseA !== baseB) return baseB - baseA;
  return b.length - a.length;
}

function expand(target: unknown, match: string | undefined, conditions: readonly string[]): string[] {
  if (typeof target === 'string') return [match === undefined ? target : target.replaceAll('*', match)];
  if (Array.isArray(target)) return target.flatMap((t) => expand(t, match, conditions));
  if (!isObject(target)) return []; // `null` excludes the subpath
  const out: string[] = [];
  for (const condition of conditions) {
    if (condition in target) out.push(...expand(target[condition], match, conditions));
  }
  return out;
}
