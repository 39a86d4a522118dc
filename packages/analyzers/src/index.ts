// @codehealth/analyzers — the built-in analyzers, shipped as the engine's default plugin.
import type { Plugin } from '@codehealth/engine';
import { codeSmell } from './code-smell/index.js';

// Analyzers
export { codeSmell };

// The plugin the engine loads by default
export const plugin: Plugin = { name: '@codehealth/analyzers', analyzers: [codeSmell] };
export default plugin;
