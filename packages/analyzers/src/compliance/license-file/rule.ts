// Checks that the repository has a licence file and that package.json declares the same licence.
import { defineRule, type RepoFile } from '@codehealth/engine/kit';
import { lineOfKey, readManifest, type Manifest } from '../shared/manifests.js';
import { detectLicenseText, licenseFamily, readLicenseDeclaration } from '../shared/spdx.js';

// LICENSE, LICENCE.md, LICENSE-MIT, COPYING, COPYING.LESSER, UNLICENSE at the root.
const LICENSE_FILE = /^(?:un)?licen[cs]e(?:[-_.][^/]*)?$|^copying(?:[-_.][^/]*)?$/i;

/** Where findings about the repository's licence go: package.json's `license` line, else the root. */
function anchorOf(manifest: Manifest | undefined): { filePath: string; lineStart: number } {
  if (!manifest) return { filePath: '.', lineStart: 1 };
  return { filePath: manifest.path, lineStart: lineOfKey(manifest.text, 'license') };
}

export const licenseFile = defineRule({
  kind: 'repository',
  meta: {
    id: 'license-file',
    description: 'A repository without a licence file, or whose package.json declares another licence than its licence file',
    category: 'compliance',
    severity: 'medium',
    confidence: 90,
    docs: {
      whyItMatters:
        'Without a licence text nobody may legally use, copy or change the code, whatever package.json says: most licences ' +
        '(MIT, Apache-2.0, BSD) require their text to travel with the code. A package.json that names another licence than the ' +
        'licence file leaves users and compliance scanners unsure which one applies.',
      suggestedAction:
        'Add the full licence text as LICENSE at the repository root (choosealicense.com has them), and make package.json’s ' +
        '`license` field the SPDX id of that same licence.',
    },
  },
  async analyze(context) {
    const { snapshot } = context;
    // A `license.ts` at the root is code, not a licence text.
    const files: RepoFile[] = snapshot.files.filter((f) => !f.path.includes('/') && f.kind !== 'source' && f.kind !== 'test' && LICENSE_FILE.test(f.path));
    const manifest = await readManifest(snapshot, 'package.json');
    const declaration = manifest ? readLicenseDeclaration(manifest.json) : ({ kind: 'none' } as const);
    const declared = declaration.kind === 'expression' ? declaration.text : undefined;

    if (files.length === 0) {
      // UNLICENSED says on purpose that nobody else may use the code: no text is expected.
      if (declaration.kind === 'unlicensed') return;
      context.report({
        ...anchorOf(manifest),
        title: declared ? `No LICENSE file for the ${declared} licence package.json declares` : 'No LICENSE file in the repository',
        description: declared
          ? `package.json declares the licence ${declared}, but there is no LICENSE, LICENCE or COPYING file at the repository root with its text.`
          : `There is no LICENSE, LICENCE or COPYING file at the repository root${manifest ? ' and package.json declares no licence' : ''}, so the code is not licensed to anyone.`,
        data: { declared: declared ?? '' },
      });
      return;
    }

    const detected: Array<{ path: string; id: string }> = [];
    for (const file of files) {
      const id = detectLicenseText(await snapshot.readFile(file.path).catch(() => ''));
      if (id) detected.push({ path: file.path, id });
    }
    if (!manifest || detected.length === 0) return;
    const named = detected.map((d) => `${d.path} (${d.id})`).join(', ');
    if (declaration.kind === 'none') {
      // A private package is never published: its manifest needs no licence.
      if (manifest.json.private === true) return;
      context.report({
        filePath: manifest.path,
        lineStart: 1,
        title: `package.json has no license field; ${detected[0].path} is ${detected[0].id}`,
        description: `package.json declares no licence, while the licence file says ${named}. npm and licence scanners read the field, not the file.`,
        suggestedAction: `Add "license": "${detected[0].id}" to package.json.`,
        severity: 'low',
        data: { detected: detected[0].id },
      });
      return;
    }
    if (declaration.kind !== 'expression') return;
    const declaredFamilies = new Set(declaration.options.flat().map((id) => licenseFamily(id).toLowerCase()));
    if (detected.some((d) => declaredFamilies.has(licenseFamily(d.id).toLowerCase()))) return;
    context.report({
      ...anchorOf(manifest),
      title: `package.json declares ${declaration.text}, but ${detected[0].path} is ${detected[0].id}`,
      description: `The license field of package.json is ${declaration.text}, while the licence file says otherwise: ${named}. Users cannot tell which licence applies.`,
      suggestedAction: `Decide which licence applies; then make the license field "${detected[0].id}" or replace the licence file's text.`,
      data: { declared: declaration.text, detected: detected[0].id },
    });
  },
});
