// @codehealth/analyzers — the built-in analyzers, shipped as the engine's default plugin.
import type { Plugin } from '@codehealth/engine/kit';
import { codeSmell } from './code-smell/index.js';
import { compliance } from './compliance/index.js';
import { consistency } from './consistency/index.js';
import { deadCode } from './dead-code/index.js';
import { duplication } from './duplication/index.js';
import { runtime } from './runtime/index.js';
import { sarifImport } from './sarif-import/index.js';
import { security } from './security/index.js';
import { testing } from './testing/index.js';

// Analyzers, one per health category, plus SARIF import
export { security, runtime, testing, codeSmell, duplication, deadCode, consistency, compliance, sarifImport };

// The plugin the engine loads by default
export const plugin: Plugin = {
  name: '@codehealth/analyzers',
  analyzers: [security, runtime, testing, codeSmell, duplication, deadCode, consistency, compliance, sarifImport],
};
export default plugin;
