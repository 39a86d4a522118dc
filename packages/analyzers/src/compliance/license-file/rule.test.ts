import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeWith, MiniRepo } from '../../shared/fixtures/mini-repo.js';
import { LICENSE_TEXTS } from '../shared/fixtures/license-texts.js';
import { compliance } from '../index.js';

const RULE = 'compliance/license-file';
const manifest = (fields: Record<string, unknown>) => JSON.stringify({ name: 'pkg', version: '1.0.0', ...fields }, null, 2);
const code = { 'src/index.ts': 'export const a = 1;\n' };

async function findings(files: Record<string, string>) {
  const result = await analyzeWith(compliance, new MiniRepo({ ...code, ...files }).root);
  return result.findings
    .filter((f) => f.ruleId === RULE)
    .map((f) => ({ file: f.filePath, line: f.anchor.lineStart, title: f.title, severity: f.severity, description: f.description }));
}

describe('compliance/license-file', () => {
  it('never reads a licence file or manifest linked out of the repository, and quotes neither', async () => {
    const outside = new MiniRepo({ LICENSE: `${LICENSE_TEXTS['GPL-3.0']}\nOUTSIDE-SECRET-11c\n`, 'package.json': manifest({ license: 'OUTSIDE-SECRET-11c' }) });
    const repo = new MiniRepo({ ...code });
    symlinkSync(join(outside.root, 'LICENSE'), join(repo.root, 'LICENSE'));
    symlinkSync(join(outside.root, 'package.json'), join(repo.root, 'package.json'));
    const result = await analyzeWith(compliance, repo.root);
    expect(result.findings.filter((f) => f.ruleId === RULE).map((f) => [f.filePath, f.title])).toEqual([['.', 'No LICENSE file in the repository']]);
    expect(JSON.stringify(result)).not.toContain('OUTSIDE-SECRET');
  });

  it('reports a missing licence file on package.json’s license line', async () => {
    expect(await findings({ 'package.json': manifest({ license: 'Apache-2.0' }) })).toEqual([
      {
        file: 'package.json',
        line: 4,
        title: 'No LICENSE file for the Apache-2.0 licence package.json declares',
        severity: 'medium',
        description: 'package.json declares the licence Apache-2.0, but there is no LICENSE, LICENCE or COPYING file at the repository root with its text.',
      },
    ]);
  });

  it('reports a missing licence at the root when there is no package.json, and at line 1 when nothing is declared', async () => {
    expect(await findings({})).toMatchObject([{ file: '.', line: 1, title: 'No LICENSE file in the repository' }]);
    expect(await findings({ 'package.json': manifest({}) })).toMatchObject([
      {
        file: 'package.json',
        line: 1,
        title: 'No LICENSE file in the repository',
        description:
          'There is no LICENSE, LICENCE or COPYING file at the repository root and package.json declares no licence, so the code is not licensed to anyone.',
      },
    ]);
  });

  it('accepts UNLICENSED code without a licence file, and matching declarations in their many spellings', async () => {
    expect(await findings({ 'package.json': manifest({ license: 'UNLICENSED' }) })).toEqual([]);
    expect(await findings({ 'package.json': manifest({ license: 'MIT' }), LICENSE: LICENSE_TEXTS.MIT })).toEqual([]);
    expect(await findings({ 'package.json': manifest({ license: '(MIT OR Apache-2.0)' }), 'LICENSE-APACHE': LICENSE_TEXTS['Apache-2.0'] })).toEqual([]);
    expect(await findings({ 'package.json': manifest({ license: 'GPL-3.0-or-later' }), COPYING: LICENSE_TEXTS['GPL-3.0'] })).toEqual([]);
    expect(await findings({ 'package.json': manifest({ license: 'mit' }), 'LICENCE.md': LICENSE_TEXTS.MIT })).toEqual([]);
    // A text that is not one of the common licences cannot be compared.
    expect(await findings({ 'package.json': manifest({ license: 'MIT' }), 'LICENSE.txt': 'Proprietary. All rights reserved.' })).toEqual([]);
  });

  it('reports a declaration that disagrees with the licence text', async () => {
    expect(await findings({ 'package.json': manifest({ license: 'ISC' }), 'LICENSE.md': LICENSE_TEXTS.MIT })).toEqual([
      {
        file: 'package.json',
        line: 4,
        title: 'package.json declares ISC, but LICENSE.md is MIT',
        severity: 'medium',
        description:
          'The license field of package.json is ISC, while the licence file says otherwise: LICENSE.md (MIT). Users cannot tell which licence applies.',
      },
    ]);
  });

  it('reports a published package.json without a license field (low), not a private one', async () => {
    expect(await findings({ 'package.json': manifest({}), LICENSE: LICENSE_TEXTS['BSD-3-Clause'] })).toMatchObject([
      { file: 'package.json', line: 1, title: 'package.json has no license field; LICENSE is BSD-3-Clause', severity: 'low' },
    ]);
    expect(await findings({ 'package.json': manifest({ private: true }), LICENSE: LICENSE_TEXTS['BSD-3-Clause'] })).toEqual([]);
  });
});
