// The `runtime` analyzer: syntactic evidence of code that fails at run time — dropped promises,
// swallowed or unguarded errors, unreachable statements, coercing comparisons, risky assertions.
import { defineAnalyzer } from '@codehealth/engine/kit';
import { asyncEventHandler } from './async-event-handler/rule.js';
import { coercingEquality } from './coercing-equality/rule.js';
import { emptyCatch } from './empty-catch/rule.js';
import { asyncCallsCollector } from './floating-imported-promise/collector.js';
import { floatingImportedPromise } from './floating-imported-promise/rule.js';
import { floatingPromise } from './floating-promise/rule.js';
import { nonNullAssertionOnNullable } from './non-null-assertion-on-nullable/rule.js';
import { throwNonError } from './throw-non-error/rule.js';
import { unguardedJsonParse } from './unguarded-json-parse/rule.js';
import { unreachableCode } from './unreachable-code/rule.js';

export const runtime = defineAnalyzer({
  id: 'runtime',
  description: 'Finds code likely to fail at run time: floating promises, swallowed errors, unguarded parsing, unreachable code and more',
  categories: ['runtime'],
  languages: ['typescript', 'tsx', 'javascript', 'jsx'],
  rules: [
    floatingPromise,
    floatingImportedPromise,
    emptyCatch,
    unguardedJsonParse,
    unreachableCode,
    coercingEquality,
    nonNullAssertionOnNullable,
    asyncEventHandler,
    throwNonError,
  ],
  collectors: [asyncCallsCollector],
});
