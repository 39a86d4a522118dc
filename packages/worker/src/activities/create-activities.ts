// The activities factory: every activity of the workflows over resolved engine services, a
// repository checkout cache and an engine instance. Both the embedded runner and the Temporal
// worker register what this returns.
import type { Activities } from '../workflows/activities.js';
import { architectureActivities } from './architecture-activities.js';
import { healthActivities } from './health-activities.js';
import { prActivities } from './pr-activities.js';
import { repositoryActivities, type ActivityDeps } from './repository-activities.js';

export type { ActivityDeps } from './repository-activities.js';

export function createActivities(deps: ActivityDeps): Activities {
  return {
    ...repositoryActivities(deps),
    ...healthActivities(deps),
    ...architectureActivities(deps),
    ...prActivities(deps),
  };
}
