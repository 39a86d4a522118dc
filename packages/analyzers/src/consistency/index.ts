// The `consistency` analyzer: learns the repository's own conventions (naming, files, imports,
// error handling, async code), publishes how consistently they are followed, and reports deviations.
import { defineAnalyzer } from '@codehealth/engine/kit';
import { asyncStyle } from './async-style/rule.js';
import { errorHandlingStyle } from './error-handling-style/rule.js';
import { fileNaming } from './file-naming/rule.js';
import { importStyle } from './import-style/rule.js';
import { namesCollector } from './naming-convention/collector.js';
import { namingConvention } from './naming-convention/rule.js';
import { flowCollector } from './shared/flow-collector.js';

export const consistency = defineAnalyzer({
  id: 'consistency',
  description: 'Detects the repository’s naming, file, import, error-handling and async conventions and reports deviations from them',
  categories: ['consistency'],
  languages: ['typescript', 'tsx', 'javascript', 'jsx'],
  rules: [namingConvention, fileNaming, importStyle, errorHandlingStyle, asyncStyle],
  collectors: [namesCollector, flowCollector],
  readsGraph: false,
});
