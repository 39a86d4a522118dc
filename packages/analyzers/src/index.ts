// @codehealth/analyzers — the built-in analyzers, shipped as the engine's default plugin.
import type { Plugin } from '@codehealth/engine';
import { codeSmell } from './code-smell/index.js';
import { deadCode } from './dead-code/index.js';
import { sarifImport } from './sarif-import/index.js';

// Analyzers
export { codeSmell, deadCode, sarifImport };

// The plugin the engine loads by default
export const plugin: Plugin = { name: '@codehealth/analyzers', analyzers: [codeSmell, deadCode, sarifImport] };
export default plugin;
