// Checks the licences of the dependencies declared by the repository's package.json files against
// an allow list and a deny list, reading each licence from the installed package (no network).
import { join } from 'node:path';
import { defineRule, type RepositoryReportDescriptor } from '@codehealth/engine/kit';
import { z } from 'zod';
import { lineOfKey, repositoryManifests, type Manifest } from '../shared/manifests.js';
import { readLicenseDeclaration } from '../shared/spdx.js';
import { exists, InstalledPackages, type InstalledPackage } from './installed.js';
import { createPolicy, DEFAULT_ALLOW, DEFAULT_DENY, DEFAULT_DENY_FOR_GPL_PROJECTS, isGplFamily, type LicensePolicy } from './policy.js';

const options = z
  .object({
    /** Replaces the default allow list (glob patterns on SPDX ids, `BSD-*`). */
    allow: z.array(z.string().min(1)).optional(),
    /** Replaces the default deny list. */
    deny: z.array(z.string().min(1)).optional(),
    includeDev: z.boolean().default(false),
    /** Package names never checked (vetted by hand, or covered by a commercial licence). */
    ignore: z.array(z.string()).default([]),
    /** Report dependencies whose licence cannot be read, at `info`. */
    reportUnknown: z.boolean().default(true),
  })
  .strict()
  .prefault({});

const RUNTIME_BLOCKS = ['dependencies', 'optionalDependencies', 'peerDependencies'] as const;
// Optional and peer dependencies are often absent on purpose (other platforms, provided by the host).
const MAY_BE_ABSENT = new Set(['optionalDependencies', 'peerDependencies']);
const LOCAL_SPEC = /^(?:workspace|file|link|portal):/;

interface Declared {
  manifest: Manifest;
  block: string;
  name: string;
  spec: string;
}

function declaredDependencies(manifests: readonly Manifest[], includeDev: boolean, skip: (name: string, spec: string) => boolean): Declared[] {
  const blocks = includeDev ? [...RUNTIME_BLOCKS, 'devDependencies'] : RUNTIME_BLOCKS;
  const out: Declared[] = [];
  for (const manifest of manifests) {
    for (const block of blocks) {
      const deps = manifest.json[block];
      if (!deps || typeof deps !== 'object') continue;
      for (const [name, spec] of Object.entries(deps as Record<string, unknown>)) {
        if (typeof spec === 'string' && !skip(name, spec)) out.push({ manifest, block, name, spec });
      }
    }
  }
  return out;
}

function policyFor(manifests: readonly Manifest[], allow: string[] | undefined, deny: string[] | undefined): LicensePolicy {
  const root = manifests.find((m) => m.dir === '');
  const own = root ? readLicenseDeclaration(root.json) : undefined;
  const gpl = own?.kind === 'expression' && isGplFamily(own.options.flat());
  return createPolicy(
    allow ?? (gpl ? [...DEFAULT_ALLOW, 'GPL-*', 'AGPL-*', 'LGPL-*'] : DEFAULT_ALLOW),
    deny ?? (gpl ? DEFAULT_DENY_FOR_GPL_PROJECTS : DEFAULT_DENY),
  );
}

function describeVersion(dep: Declared, installed: InstalledPackage): string {
  return `${dep.name}${installed.version ? `@${installed.version}` : ''} (${dep.block} of ${dep.manifest.path}, wanted ${dep.spec})`;
}

type Judgement = { kind: 'denied' | 'review' | 'unknown'; finding: Omit<RepositoryReportDescriptor, 'filePath' | 'lineStart'> };

/** The finding for one dependency, or undefined when its licence is allowed. */
function judge(dep: Declared, installed: InstalledPackage | undefined, policy: LicensePolicy): Judgement | undefined {
  if (!installed) {
    const from = dep.manifest.dir || 'the root';
    return {
      kind: 'unknown',
      finding: {
        title: `Licence of dependency ${dep.name} unknown (not installed)`,
        description: `${dep.name} (${dep.block} of ${dep.manifest.path}, wanted ${dep.spec}) is not installed in any node_modules between ${from} and the repository root, so its licence cannot be read.`,
        severity: 'info',
        confidence: 70,
      },
    };
  }
  const { declaration } = installed;
  if (declaration.kind !== 'expression') {
    const why =
      declaration.kind === 'unlicensed'
        ? 'is UNLICENSED (proprietary: no rights granted)'
        : declaration.kind === 'see-file'
          ? `points to a licence file (${declaration.file}) whose text is not a common licence`
          : 'declares no licence and ships no recognisable licence file';
    return {
      kind: 'unknown',
      finding: {
        title: `Licence of dependency ${dep.name} unknown`,
        description: `${describeVersion(dep, installed)} ${why}. Check its terms by hand.`,
        severity: 'info',
        confidence: 80,
      },
    };
  }
  const source = installed.fromFile ? ` (recognised from its ${installed.fromFile}; package.json declares none)` : '';
  const licensed = `${describeVersion(dep, installed)} is licensed ${declaration.text}${source}`;
  const verdict = policy.verdict(declaration.options);
  if (verdict.kind === 'denied') {
    return {
      kind: 'denied',
      finding: {
        title: `${declaration.text} dependency ${dep.name} in ${dep.manifest.path}`,
        description: `${licensed}, which the deny list forbids (${verdict.rule}).`,
        severity: 'high',
        data: { license: declaration.text, rule: verdict.rule },
      },
    };
  }
  if (verdict.kind === 'review') {
    return {
      kind: 'review',
      finding: {
        title: `Dependency ${dep.name} is ${declaration.text}, not on the allow list`,
        description: `${licensed}, which is neither allowed nor denied by the licence policy: review its terms.`,
        severity: 'low',
        confidence: 80,
        data: { license: declaration.text },
      },
    };
  }
  return undefined;
}

export const dependencyLicense = defineRule({
  kind: 'repository',
  meta: {
    id: 'dependency-license',
    description: 'Dependencies whose licence is denied, not on the allow list, or unknown',
    category: 'compliance',
    severity: 'high',
    options,
    confidence: 85,
    docs: {
      whyItMatters:
        'A dependency’s licence binds whoever ships it: a GPL or AGPL package in proprietary or permissively licensed software ' +
        'can oblige you to publish your own source, SSPL restricts offering the software as a service, and a package without a ' +
        'known licence may not be used at all.',
      suggestedAction:
        'Replace the dependency with a permissively licensed alternative, obtain a licence that fits your distribution, or record ' +
        'a reviewed exception in the rule’s `ignore` option.',
    },
  },
  async analyze(context) {
    const { snapshot } = context;
    const { includeDev, ignore, reportUnknown } = context.options;
    const manifests = await repositoryManifests(snapshot);
    const own = new Set(manifests.map((m) => m.json.name).filter((n): n is string => typeof n === 'string'));
    const ignored = new Set(ignore);
    const deps = declaredDependencies(manifests, includeDev, (name, spec) => ignored.has(name) || own.has(name) || LOCAL_SPEC.test(spec));
    const policy = policyFor(manifests, context.options.allow, context.options.deny);
    const at = (dep: Declared) => ({ filePath: dep.manifest.path, lineStart: lineOfKey(dep.manifest.text, dep.name, dep.block), symbol: dep.name });
    const counts = { checked: 0, denied: 0, review: 0, unknown: 0 };
    const report = (descriptor: RepositoryReportDescriptor, kind: 'denied' | 'review' | 'unknown') => {
      counts[kind]++;
      if (kind !== 'unknown' || reportUnknown) context.report(descriptor);
    };

    const dirs = new Set(['', ...manifests.map((m) => m.dir)]);
    const installedAnywhere = (await Promise.all([...dirs].map((dir) => exists(join(snapshot.root, dir, 'node_modules'))))).some(Boolean);
    if (!installedAnywhere) {
      // Nothing installed (a fresh clone, a CI checkout before `npm ci`): nothing can be checked, and
      // that is a fact about where the analysis ran, not a problem of the code. The metric says it.
      counts.unknown += deps.length;
      context.metric('dependenciesNotInstalled', deps.length);
      publish();
      return;
    }

    const installedPackages = new InstalledPackages(snapshot.root);
    for (const dep of deps) {
      const installed = await installedPackages.find(dep.manifest.dir, dep.name);
      if (!installed && MAY_BE_ABSENT.has(dep.block)) continue;
      if (installed) counts.checked++;
      const judged = judge(dep, installed, policy);
      if (judged) report({ ...at(dep), ...judged.finding }, judged.kind);
    }
    publish();

    function publish(): void {
      context.metric('dependenciesChecked', counts.checked);
      context.metric('dependenciesDenied', counts.denied);
      context.metric('dependenciesToReview', counts.review);
      context.metric('dependenciesUnknownLicense', counts.unknown);
    }
  },
});
