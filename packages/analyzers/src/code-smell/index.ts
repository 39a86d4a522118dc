// The `code-smell` analyzer: size, complexity and structure rules over functions, classes, files
// and modules.
import { defineAnalyzer } from '@codehealth/engine/kit';
import { cognitiveComplexity } from './cognitive-complexity/rule.js';
import { deepNesting } from './deep-nesting/rule.js';
import { duplicatedBranches } from './duplicated-branches/rule.js';
import { godModule } from './god-module/rule.js';
import { largeClass } from './large-class/rule.js';
import { longFunction } from './long-function/rule.js';
import { magicNumbers } from './magic-numbers/rule.js';
import { oversizedFile } from './oversized-file/rule.js';
import { tooManyParameters } from './too-many-parameters/rule.js';

export const codeSmell = defineAnalyzer({
  id: 'code-smell',
  description:
    'Finds functions, classes, files and modules that are too complex, too long, too deeply nested or too central, ' +
    'functions with too many parameters, duplicated branches and magic numbers',
  categories: ['code_smell'],
  languages: ['typescript', 'tsx', 'javascript', 'jsx'],
  rules: [
    cognitiveComplexity,
    longFunction,
    tooManyParameters,
    deepNesting,
    oversizedFile,
    largeClass,
    duplicatedBranches,
    magicNumbers,
    godModule,
  ],
});
