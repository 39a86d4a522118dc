// The `duplication` analyzer: token-based clone detection across files (jscpd's model, type-1 and
// type-2), from token streams collected during the engine's single walk.
import { defineAnalyzer } from '@codehealth/engine/kit';
import { duplicatedCode } from './duplicated-code/rule.js';
import { tokenCollector } from './token-collector.js';

export const duplication = defineAnalyzer({
  id: 'duplication',
  description: 'Finds blocks of code repeated across files (copy-paste) and measures the duplication index',
  categories: ['duplication'],
  languages: ['typescript', 'tsx', 'javascript', 'jsx'],
  rules: [duplicatedCode],
  collectors: [tokenCollector],
  readsGraph: false,
});
