// The `code-smell` analyzer: size, complexity and structure rules over functions, classes, files
// and modules.
import { defineAnalyzer } from '@codehealth/engine/kit';
import { blanketLintDisable } from './blanket-lint-disable/rule.js';
import { cognitiveComplexity } from './cognitive-complexity/rule.js';
import { deepNesting } from './deep-nesting/rule.js';
import { duplicatedBranches } from './duplicated-branches/rule.js';
import { explicitAny } from './explicit-any/rule.js';
import { godModule } from './god-module/rule.js';
import { largeClass } from './large-class/rule.js';
import { longFunction } from './long-function/rule.js';
import { magicNumbers } from './magic-numbers/rule.js';
import { oversizedFile } from './oversized-file/rule.js';
import { tooManyParameters } from './too-many-parameters/rule.js';
import { typeCheckSuppression } from './type-check-suppression/rule.js';

export const codeSmell = defineAnalyzer({
  id: 'code-smell',
  description:
    'Finds functions, classes, files and modules that are too complex, too long, too deeply nested or too central, ' +
    'functions with too many parameters, duplicated branches, magic numbers, and type-safety holes (dense explicit `any`, ' +
    'unexplained TypeScript suppressions, blanket lint disables)',
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
    explicitAny,
    typeCheckSuppression,
    blanketLintDisable,
  ],
});
