// Architecture (spec section 4, "Architecture"): overview, reviews, conventions and ADRs. The
// spec lists the paths only; the payloads are ours and documented here and in the schemas.
import { api } from '@codehealth/service';
import { z } from 'zod';
import { ProjectParams, projectParamsWith } from '../params.js';
import { defineRoute } from '../route.js';

const TAG = 'Architecture';
const BASE = '/projects/{id}/architecture';

const OVERVIEW = `Computed by the engine from the latest analysis of each linked repository (onboarding's architecture
documentation step and every completed review regenerate it), never written by hand. Per repository:
- \`components\`: the top-level directories (files at the root form \`.\`); a directory without code files of its own and
  with two or more subdirectories (\`packages/\`), or one holding more than half of all code lines (a \`src/\` holding
  everything), is replaced by its subdirectories. Sizes count code lines (no comments or blank lines).
- Coupling per component, counted in source modules (tests left out): \`afferent_coupling\` Ca, \`efferent_coupling\` Ce,
  \`instability\` I = Ce/(Ca+Ce), \`abstractness\` A = exported interfaces and types / own exports, \`distance\`
  D = |A+I-1| (Robert C. Martin's package metrics).
- \`layers\`: component dependencies (import statements between source modules) and their levels: level 0 depends on no
  other component, level n on components below n only; components depending on one another share a level and are listed
  in \`layers.cycles\`.
- \`entry_points\`: source modules no other source module imports that reach other modules or have a conventional entry
  name (index, main, cli, server, app, bin), most reaching first (at most 15).
- \`import_cycles\`: strongly connected modules (type-only imports included; \`runtime\` false when only those close it).
- \`hot_spots\`: most imported modules, largest files, highest churn in the last 30 days (10 each).
- \`external_dependencies\`, \`test_layout\`, \`languages\` and a generated \`summary\`.
404 when no overview exists yet.`;

const REVIEW = `A review reads the code graph of each linked repository and reports design problems as \`findings\`, which also
become issues (source \`architecture\`, \`context_type\` \`architecture_review\`, \`context_id\` = the review id) with the
usual dismissal and is_new semantics. Rules: \`architecture/import-cycle\` (run-time cycles medium, 10 or more modules
high, type-only cycles low), \`architecture/layering-violation\` (medium: in components that depend on one another, the
weakest dependencies — fewest imports — whose removal leaves no cycle), \`architecture/unstable-dependency\` (low: a
component depends on one whose instability is more than 0.25 higher, both with Ca+Ce of at least 3; the Stable
Dependencies Principle), \`architecture/hub-module\` (medium: at least 10 importing and 10 imported source modules).
Statuses: pending → running → completed | failed. \`metrics\` is null and \`findings\` empty until completed.`;

const CONVENTIONS = `Conventions are detected by the consistency analyzers (naming, file names, import style, async and error
style) over the linked repositories; a detection merges the repositories' counts per value. Re-detection replaces the
measurements and keeps a user's \`accepted\` or \`rejected\` status; conventions no longer detected are removed unless a
user decided on them. Sorted by name.`;

const ADRS = `Architecture decision records, numbered 1, 2, 3, ... per project in order of creation (never reused).
Status moves: proposed → accepted | rejected; rejected → proposed; accepted → deprecated | superseded;
deprecated → accepted | superseded; superseded is final; staying in a status is always allowed. Another move is a 409.
\`superseded\` requires \`superseded_by\`: another ADR of the same project that is proposed or accepted (400 otherwise);
other statuses take no \`superseded_by\` (400), and leaving \`superseded\` clears it.`;

export const architectureRoutes = [
  defineRoute({
    method: 'GET',
    path: `${BASE}/overview`,
    operationId: 'getArchitectureOverview',
    summary: 'The architecture overview computed from the linked repositories',
    description: OVERVIEW,
    tag: TAG,
    access: 'member',
    params: ProjectParams,
    status: 200,
    response: api.ArchitectureOverviewSchema,
    handler: ({ services, actor, params }) => services.architecture.getOverview(actor, params.id),
  }),
  defineRoute({
    method: 'GET',
    path: `${BASE}/reviews`,
    operationId: 'listArchitectureReviews',
    summary: 'Architecture reviews, newest first (paginated; findings only in the single-review response)',
    description: REVIEW,
    tag: TAG,
    access: 'member',
    params: ProjectParams,
    query: api.ReviewListQuery,
    status: 200,
    response: api.ArchitectureReviewListSchema,
    handler: ({ services, actor, params, query }) => services.architectureReviews.list(actor, params.id, query),
  }),
  defineRoute({
    method: 'GET',
    path: `${BASE}/reviews/{reviewId}`,
    operationId: 'getArchitectureReview',
    summary: 'One architecture review with its findings and metrics',
    description: REVIEW,
    tag: TAG,
    access: 'member',
    params: projectParamsWith('reviewId'),
    status: 200,
    response: api.ArchitectureReviewSchema,
    handler: ({ services, actor, params }) => services.architectureReviews.get(actor, params.id, params.reviewId),
  }),
  defineRoute({
    method: 'POST',
    path: `${BASE}/reviews/trigger`,
    operationId: 'triggerArchitectureReview',
    summary: 'Start an architecture review (asynchronous; poll the review)',
    description:
      'No body. 201 with the review id, `pending` and the workflow id. While a review of the project is pending or running, ' +
      'that one is returned instead. 409 when the project has no linked repository; 503 when the workflow engine is unavailable.',
    tag: TAG,
    access: 'member',
    params: ProjectParams,
    status: 201,
    response: api.TriggeredReviewSchema,
    errors: [409, 503],
    handler: ({ services, actor, params }) => services.architectureReviews.trigger(actor, params.id),
  }),
  defineRoute({
    method: 'GET',
    path: `${BASE}/conventions`,
    operationId: 'listConventions',
    summary: 'Detected conventions of the project (not paginated)',
    description: CONVENTIONS,
    tag: TAG,
    access: 'member',
    params: ProjectParams,
    query: api.ConventionListQuery,
    status: 200,
    response: z.array(api.ConventionSchema),
    handler: ({ services, actor, params, query }) => services.architecture.listConventions(actor, params.id, query),
  }),
  defineRoute({
    method: 'PATCH',
    path: `${BASE}/conventions/{conventionId}`,
    operationId: 'updateConventionStatus',
    summary: 'Accept or reject a convention, or set it back to detected',
    description: 'Body `{ "status": "accepted" | "rejected" | "detected" }`; returns the updated convention.',
    tag: TAG,
    access: 'member',
    params: projectParamsWith('conventionId'),
    body: api.UpdateConventionBody,
    status: 200,
    response: api.ConventionSchema,
    handler: ({ services, actor, params, body }) => services.architecture.updateConvention(actor, params.id, params.conventionId, body),
  }),
  defineRoute({
    method: 'POST',
    path: `${BASE}/conventions/detect`,
    operationId: 'detectConventions',
    summary: 'Start a convention detection over the linked repositories (asynchronous)',
    description: `No body. 201 \`{ "status": "queued", "workflow_id" }\`; the list changes when the workflow has run.
409 when the project has no linked repository; 503 when the workflow engine is unavailable. ${CONVENTIONS}`,
    tag: TAG,
    access: 'member',
    params: ProjectParams,
    status: 201,
    response: api.ConventionDetectionSchema,
    errors: [409, 503],
    handler: ({ services, actor, params }) => services.architecture.detectConventions(actor, params.id),
  }),
  defineRoute({
    method: 'GET',
    path: `${BASE}/adrs`,
    operationId: 'listAdrs',
    summary: 'Architecture decision records by number (paginated, optional status filter)',
    description: ADRS,
    tag: TAG,
    access: 'member',
    params: ProjectParams,
    query: api.AdrListQuery,
    status: 200,
    response: api.AdrListSchema,
    handler: ({ services, actor, params, query }) => services.adrs.list(actor, params.id, query),
  }),
  defineRoute({
    method: 'POST',
    path: `${BASE}/adrs`,
    operationId: 'createAdr',
    summary: 'Record an architecture decision; it gets the next number of the project',
    description: `\`title\` required; \`context\`, \`decision\`, \`consequences\` default to ""; \`status\` defaults to \`proposed\`. ${ADRS}`,
    tag: TAG,
    access: 'member',
    params: ProjectParams,
    body: api.CreateAdrBody,
    status: 201,
    response: api.AdrSchema,
    handler: ({ services, actor, params, body }) => services.adrs.create(actor, params.id, body),
  }),
  defineRoute({
    method: 'GET',
    path: `${BASE}/adrs/{adrId}`,
    operationId: 'getAdr',
    summary: 'One architecture decision record',
    tag: TAG,
    access: 'member',
    params: projectParamsWith('adrId'),
    status: 200,
    response: api.AdrSchema,
    handler: ({ services, actor, params }) => services.adrs.get(actor, params.id, params.adrId),
  }),
  defineRoute({
    method: 'PATCH',
    path: `${BASE}/adrs/{adrId}`,
    operationId: 'updateAdr',
    summary: 'Change an ADR; only provided fields change',
    description: ADRS,
    tag: TAG,
    access: 'member',
    params: projectParamsWith('adrId'),
    body: api.UpdateAdrBody,
    status: 200,
    response: api.AdrSchema,
    errors: [409],
    handler: ({ services, actor, params, body }) => services.adrs.update(actor, params.id, params.adrId, body),
  }),
];
