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
  const { map, special } = shape;
  const exact = map[subpath];
  if (exact !== undefined && !subpath.includes('*')) return expand(exact, undefined, conditions);
  let bestKey: string | undefined;
  let bestMatch = '';
  for (const { key, star, prefix, suffix } of special) {
    if (star >= 0) {
      if (subpath.length < key.length - 1 || !subpath.startsWith(prefix) || !subpath.endsWith(suffix)) continue;
      if (bestKey === undefined || comparePatternKeys(key, bestKey) < 0) {
        bestKey = key;
        bestMatch = subpath.slice(prefix.length, subpath.length - suffix.length);
      }
    } else if (subpath.startsWith(key) && bestKey === undefined) {
      // Deprecated folder mapping (`"./lib/": "./dist/lib/"`), used only when no pattern matches.
      const folder = map[key];
      if (typeof folder === 'string') return [folder + subpath.slice(key.length)];
    }
  }
  return bestKey === undefined ? [] : expand(map[bestKey], bestMatch, conditions);
}

interface SubpathMap {
  map: Record<string, unknown>;
  /** Pattern (`*`) and folder (`/`-ending) keys in map order: the only keys matched other than exactly. */
  special: Array<{ key: string; star: number; prefix: string; suffix: string }>;
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
  const keys = Object.keys(map).filter((key) => key.includes('*') || key.endsWith('/'));
  // Split once: a map is consulted for every import of its package.
  const special = keys.map((key) => {
    const star = key.indexOf('*');
    return { key, star, prefix: star >= 0 ? key.slice(0, star) : key, suffix: star >= 0 ? key.slice(star + 1) : '' };
  });
  return { map, special };
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
