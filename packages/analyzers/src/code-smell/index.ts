// The `code-smell` analyzer: size and complexity rules over functions and files.
import { defineAnalyzer } from '@codehealth/engine';
import { cognitiveComplexity } from './cognitive-complexity/rule.js';
import { deepNesting } from './deep-nesting/rule.js';
import { longFunction } from './long-function/rule.js';
import { oversizedFile } from './oversized-file/rule.js';
import { tooManyParameters } from './too-many-parameters/rule.js';
import { largeClass } from './large-class/rule.js';
import { duplicatedBranches } from './duplicated-branches/rule.js';
import { magicNumbers } from './magic-numbers/rule.js';

export const codeSmell = defineAnalyzer({
  id: 'code-smell',
  description: 'Finds functions and files that are too complex, too long, too deeply nested or take too many parameters',
  categories: ['code_smell'],
  languages: ['typescript', 'tsx', 'javascript', 'jsx'],
  rules: [cognitiveComplexity, longFunction, tooManyParameters, deepNesting, oversizedFile, largeClass, duplicatedBranches, magicNumbers],
});
