// The `sarif-import` analyzer: other tools' SARIF results become CodeHealth issues.
import { defineAnalyzer } from '@codehealth/engine/kit';
import { externalResults, SARIF_NAME } from './external-results/rule.js';

export const sarifImport = defineAnalyzer({
  id: 'sarif-import',
  description: 'Imports results of other static analysers (ESLint, Semgrep, CodeQL, …) from SARIF 2.1.0 files',
  categories: ['code_smell'],
  languages: ['typescript', 'tsx', 'javascript', 'jsx'],
  rules: [externalResults],
  readsGraph: false,
  detect(repo) {
    const files = repo.files.filter((f) => SARIF_NAME.test(f.path));
    const dirs = [...new Set(files.map((f) => (f.path.includes('/') ? f.path.slice(0, f.path.lastIndexOf('/')) : '.')))];
    return dirs.map((path) => ({
      language: 'sarif',
      path,
      enabled: true,
      description: `Imports SARIF results from ${files
        .filter((f) => (path === '.' ? !f.path.includes('/') : f.path.startsWith(`${path}/`)))
        .map((f) => f.path)
        .join(', ')}`,
    }));
  },
});
