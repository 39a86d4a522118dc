// A third-party CodeHealth plugin: one analyzer with a file rule and a repository rule. Load it
// from a repository's codehealth.config.json with `"plugins": ["codehealth-plugin-no-console"]`.
import { defineAnalyzer, type Plugin } from '@codehealth/engine';
import { noConsole } from './no-console/rule.js';
import { consoleCalls } from './scattered-console/collector.js';
import { scatteredConsole } from './scattered-console/rule.js';

export const noConsoleAnalyzer = defineAnalyzer({
  id: 'no-console',
  description: 'Finds console.* calls left in source files',
  categories: ['code_smell'],
  languages: ['typescript', 'tsx', 'javascript', 'jsx'],
  rules: [noConsole, scatteredConsole],
  collectors: [consoleCalls],
  readsGraph: false,
});

export const plugin: Plugin = { name: 'codehealth-plugin-no-console', analyzers: [noConsoleAnalyzer] };
export default plugin;
