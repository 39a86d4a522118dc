// The `dead-code` analyzer: unused exports, unused files and unused private class members, through
// the code graph with entry points taken from package.json, scripts, configs and framework conventions.
import { defineAnalyzer } from '@codehealth/engine/kit';
import { fileFactsCollector } from './shared/file-facts.js';
import { unusedExport } from './unused-export/rule.js';
import { unusedFile } from './unused-file/rule.js';
import { unusedPrivateMember } from './unused-private-member/rule.js';

export const deadCode = defineAnalyzer({
  id: 'dead-code',
  description: 'Finds exports nobody imports, files nothing reaches and private class members nothing uses',
  categories: ['dead_code'],
  languages: ['typescript', 'tsx', 'javascript', 'jsx'],
  rules: [unusedExport, unusedFile, unusedPrivateMember],
  collectors: [fileFactsCollector],
});
