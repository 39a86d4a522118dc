// One severity policy for every size and complexity rule of the family, documented in their READMEs.
import type { Severity } from '@codehealth/engine/kit';

/** `medium` once a measure exceeds its limit, `high` once it exceeds twice the limit. */
export function severityForExcess(measure: number, limit: number): Severity {
  return measure > 2 * limit ? 'high' : 'medium';
}
