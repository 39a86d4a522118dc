// Activities about repositories and onboarding sessions: fetch, analyzer detection, progress
// events, the onboarding's assessment record. Each is idempotent: a retry or a resumed run after
// a restart repeats it without duplicating anything.
import { uuidFromName, type Engine } from '@codehealth/engine';
import type { Services } from '@codehealth/service';
import { NonRetryableError } from '../workflows/retry.js';
import type { Activities } from '../workflows/activities.js';
import type { RepositoryCheckouts } from './repository-checkout.js';

export interface ActivityDeps {
  services: Services;
  engine: Engine;
  checkouts: RepositoryCheckouts;
  log?: (line: string) => void;
}

export interface RepositoryRow {
  id: string;
  name: string;
  full_name: string;
  clone_url: string;
  default_branch: string;
}

export async function repositoryRow(services: Services, repositoryId: string): Promise<RepositoryRow> {
  const row = await services.repositories.checkoutSource(repositoryId);
  if (!row) throw new NonRetryableError(`repository ${repositoryId} no longer exists`);
  return row;
}

/** Fetches the repository and checks out its default branch head; the caller disposes of it. */
export async function checkoutHead(deps: ActivityDeps, repositoryId: string, ref?: string) {
  const repository = await repositoryRow(deps.services, repositoryId);
  const sha = await deps.checkouts.fetch(repositoryId, repository.clone_url, ref);
  return { repository, checkout: await deps.checkouts.checkout(repositoryId, sha) };
}

export function repositoryActivities(
  deps: ActivityDeps,
): Pick<Activities, 'fetchRepository' | 'detectAnalyzers' | 'recordOnboardingEvent' | 'finishOnboarding' | 'createOnboardingAssessment'> {
  const { services } = deps;
  return {
    async fetchRepository({ repositoryId }) {
      const repository = await repositoryRow(services, repositoryId);
      return { sha: await deps.checkouts.fetch(repositoryId, repository.clone_url) };
    },

    async detectAnalyzers({ repositoryId }) {
      const { checkout } = await checkoutHead(deps, repositoryId);
      try {
        const detections = await deps.engine.detect(checkout.path);
        const analyzers = detections.map((d) => ({
          language: d.language,
          path: d.path,
          enabled: d.enabled,
          description: `${d.analyzer}: ${d.description}`,
        }));
        await services.repositories.recordAnalyzers(repositoryId, analyzers);
        return { analyzers: analyzers.length };
      } finally {
        await checkout.dispose();
      }
    },

    async recordOnboardingEvent({ sessionId, type, ...rest }) {
      await services.onboarding.record(sessionId, type, rest as Record<string, unknown>);
    },

    async finishOnboarding({ sessionId, status, error }) {
      await services.onboarding.finish(sessionId, status, error);
    },

    async createOnboardingAssessment({ projectId, sessionId }) {
      // Derived from the session: a retried or resumed onboarding reuses the same record.
      const id = uuidFromName(`codehealth:onboarding-assessment:${sessionId}`);
      const run = await services.assessments.create(projectId, 'manual', { id, workflowId: `onboarding-${sessionId}` });
      return { assessmentId: run.id };
    },
  };
}
