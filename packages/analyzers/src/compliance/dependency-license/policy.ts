// The licence policy for dependencies: allow and deny lists (glob patterns on SPDX ids) and the
// verdict on a licence expression.
import { licenseFamily, licenseMatches } from '../shared/spdx.js';

export const DEFAULT_ALLOW = [
  'MIT',
  'MIT-0',
  'ISC',
  '0BSD',
  'BSD-2-Clause',
  'BSD-3-Clause',
  'Apache-2.0',
  'CC0-1.0',
  'CC-BY-3.0',
  'CC-BY-4.0',
  'Unlicense',
  'BlueOak-1.0.0',
  'Python-2.0',
  'PSF-2.0',
  'Zlib',
  'BSL-1.0',
  'WTFPL',
  'X11',
  'Unicode-DFS-2016',
];
export const DEFAULT_DENY = ['GPL-*', 'AGPL-*', 'SSPL-*'];
/** A project under a GPL-family licence may take GPL code: then only these stay denied. */
export const DEFAULT_DENY_FOR_GPL_PROJECTS = ['SSPL-*'];

export type Verdict = { kind: 'allowed' } | { kind: 'denied'; rule: string } | { kind: 'review' };

export interface LicensePolicy {
  allow: readonly string[];
  deny: readonly string[];
  verdict(options: readonly string[][]): Verdict;
}

export function isGplFamily(ids: readonly string[]): boolean {
  return ids.some((id) => /^A?GPL-/i.test(licenseFamily(id)));
}

/**
 * An expression is allowed when one of its alternatives has only allowed ids (the user may pick
 * it), denied when every alternative has a denied id, and to be reviewed otherwise.
 */
export function createPolicy(allow: readonly string[], deny: readonly string[]): LicensePolicy {
  const denyingRule = (id: string) => deny.find((pattern) => licenseMatches(id, pattern));
  const allowed = (id: string) => allow.some((pattern) => licenseMatches(id, pattern));
  return {
    allow,
    deny,
    verdict(options) {
      let denial: string | undefined;
      let everyDenied = options.length > 0;
      for (const conjunction of options) {
        const rule = conjunction.map(denyingRule).find(Boolean);
        if (rule) denial ??= rule;
        else everyDenied = false;
        if (!rule && conjunction.every(allowed)) return { kind: 'allowed' };
      }
      return everyDenied && denial ? { kind: 'denied', rule: denial } : { kind: 'review' };
    },
  };
}
