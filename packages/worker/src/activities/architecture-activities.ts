// Activities of architecture documentation, reviews and convention detection. Each analyses the
// project's repositories at their default branch heads (summaries come from the engine's cache
// when an assessment just ran) and stores what the engine's architecture functions compute.
import type { AssessmentResult } from '@codehealth/engine';
import {
  buildArchitectureOverview,
  largeModelClient,
  narrateArchitectureReview,
  reviewArchitecture,
  type ArchitectureSource,
  type LlmSlot,
} from '@codehealth/service';
import type { Activities } from '../workflows/activities.js';
import { NonRetryableError } from '../workflows/retry.js';
import { checkoutHead, type ActivityDeps } from './repository-activities.js';

interface AnalysedRepository {
  source: ArchitectureSource;
  result: AssessmentResult;
}

/** Every linked repository of the project, analysed at its head (never running repository code). */
async function analyseProject(deps: ActivityDeps, projectId: string): Promise<AnalysedRepository[]> {
  const linked = await deps.services.repositories.linkedIds(projectId);
  if (linked.length === 0) throw new NonRetryableError('the project has no linked repository');
  const out: AnalysedRepository[] = [];
  for (const repositoryId of linked) {
    const { repository, checkout } = await checkoutHead(deps, repositoryId);
    try {
      const result = await deps.engine.analyze(checkout.path, { allowCodeConfig: false });
      out.push({ source: { facts: result, repository: { id: repositoryId, fullName: repository.full_name } }, result });
    } finally {
      await checkout.dispose();
    }
  }
  return out;
}

export function architectureActivities(
  /** `largeModel`: the slot narrating reviews. Undefined: read `LLM_LARGE_*` from the environment; null: the computed summary. */
  deps: ActivityDeps & { largeModel?: LlmSlot | null },
): Pick<Activities, 'documentArchitecture' | 'reviewArchitecture' | 'failArchitectureReview' | 'detectConventions'> {
  const { services } = deps;
  const saveConventions = (projectId: string, analysed: AnalysedRepository[]) =>
    services.architecture.saveDetectedConventions(
      projectId,
      analysed.flatMap((a) => a.result.conventions),
    );
  return {
    async documentArchitecture({ projectId }) {
      const analysed = await analyseProject(deps, projectId);
      await services.architecture.saveOverview(projectId, buildArchitectureOverview(analysed.map((a) => a.source)));
      return { conventions: await saveConventions(projectId, analysed) };
    },

    async reviewArchitecture({ reviewId }) {
      const review = await services.architectureReviewRecorder.find(reviewId);
      if (review.status === 'completed' || review.status === 'failed') return { status: 'already_finished' };
      await services.architectureReviewRecorder.start(reviewId);
      const analysed = await analyseProject(deps, review.projectId);
      const sources = analysed.map((a) => a.source);
      const result = reviewArchitecture(sources);
      const narration = await narrateArchitectureReview(largeModelClient(deps.largeModel, deps.log), result, { log: deps.log });
      return services.architectureReviewRecorder.complete(reviewId, { ...result, summary: narration.summary }, buildArchitectureOverview(sources));
    },

    async failArchitectureReview({ reviewId, message }) {
      await services.architectureReviewRecorder.fail(reviewId, message);
    },

    async detectConventions({ projectId }) {
      return { conventions: await saveConventions(projectId, await analyseProject(deps, projectId)) };
    },
  };
}
