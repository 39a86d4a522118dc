// @codehealth/service — the application layer for hosts: relational store and migrations,
// application services, ports, adapters and the wire schemas of the REST API. A package of its own
// so that embedding the engine (@codehealth/engine) installs and loads no database driver.

// Relational store
export type { Database, Sql, Row } from './store/database.js';
export { StoreError, sqlState, UNIQUE_VIOLATION, FOREIGN_KEY_VIOLATION } from './store/database.js';
export { PgliteDatabase } from './store/pglite-database.js';
export { PostgresDatabase } from './store/postgres-database.js';
export type { PostgresOptions } from './store/postgres-database.js';
export { openStore, pgliteDirOf } from './store/open-store.js';
export type { OpenStore, StoreConfig } from './store/open-store.js';
export { DataDirLock, DataDirLockedError, readLockOwner } from './store/data-dir-lock.js';
export type { LockOwner } from './store/data-dir-lock.js';
export { migrateUp, migrationStatus, assertMigrated, readMigrations, MigrationError, DEFAULT_MIGRATIONS_DIR } from './store/migrations.js';
export type { Migration, MigrationStatus } from './store/migrations.js';

// Ports
export type { WorkflowStarter, WorkflowRequest, WorkflowKind, StartOptions } from './ports/workflow-starter.js';
export { workflowIdOf } from './ports/workflow-starter.js';
export type { CodeHost, CodeHosts, RepositoryMetadata, PublicRepositoryRef, PullRequestMetadata } from './ports/code-host.js';
export { staticCodeHosts } from './ports/code-host.js';

// Application services
export { Services, DEFAULT_SERVICE_OPTIONS } from './services/services.js';
export type { ServiceDeps, ServiceOptions } from './services/services.js';
export type { Actor } from './services/actor.js';
export { ProjectAccess } from './services/access.js';
export type { ProjectRole, AccessLevel } from './services/access.js';
export { ServiceError, InvalidInputError, UnauthorizedError, ForbiddenError, NotFoundError, ConflictError, UnavailableError } from './services/errors.js';
export { ApiKeyService, generateApiKey, API_KEY_PREFIX, MAX_KEYS_PER_USER } from './services/api-keys.js';
export { UserService } from './services/users.js';
export type { User } from './services/users.js';
export { ProjectService } from './services/projects.js';
export { JobQueue, JobQueueWorkflowStarter, DEFAULT_JOB_QUEUE_LIMITS } from './services/job-queue.js';
export type { ClaimedJob, JobListener, JobQueueLimits } from './services/job-queue.js';
export { iso } from './services/time.js';
export { OnboardingService, FINAL_ONBOARDING_EVENTS } from './services/onboarding.js';
export type { OnboardingEventType, OnboardingEventRecord, OnboardingSession } from './services/onboarding.js';
// -- members & invitations services (add exports here)
export { MemberService } from './services/members.js';
export { InvitationService } from './services/invitations.js';
// -- repositories & code-host services (add exports here)
export { RepositoryService } from './services/repositories.js';
export type { CheckoutSource, PullRequestRow, RepositoryServiceOptions, PullRequestSyncResult } from './services/repositories.js';
export { storedPrBaseline } from './services/pr-baseline.js';
export { InstallationService } from './services/installations.js';
export { upsertRepository, repositoryWire, repositoryMetadataOf, REPOSITORY_COLUMNS } from './services/repository-records.js';
export type { RepositoryRow } from './services/repository-records.js';
export { LocalGitCodeHost, runLocalGit, LocalGitError } from './code-hosts/local-git-code-host.js';
export { GitHubCodeHost } from './code-hosts/github-code-host.js';
export type { GitHubCodeHostOptions, GitHubAppAuth } from './code-hosts/github-code-host.js';
export { defaultCodeHosts, githubApiUrl } from './code-hosts/default-code-hosts.js';
export type { DefaultCodeHostOptions } from './code-hosts/default-code-hosts.js';
export { parseRepositoryRef, parseGitHubUrl, parseLocalUrl, checkGitHubOwner, checkGitHubName } from './code-hosts/repository-url.js';
export type { RepositoryLocation } from './code-hosts/repository-url.js';
export { NO_APP_MESSAGE } from './ports/code-host.js';
export type { InstallationMetadata } from './ports/code-host.js';
// -- health services (add exports here)
export { HealthService } from './services/health.js';
export type { EnqueuedAssessment, Page } from './services/health.js';
export { AssessmentRecorder, redactFailure } from './services/assessment-recorder.js';
export { capFindingsPerRule, DEFAULT_MAX_ISSUES_PER_RULE, NOT_LISTED_KIND } from './services/finding-cap.js';
export type { CappedFindings } from './services/finding-cap.js';
export { DEFAULT_ISSUE_RETENTION_RUNS, pruneAssessmentIssues } from './services/assessment-retention.js';
export type { PrunedIssues } from './services/assessment-retention.js';
export type {
  AssessmentRun,
  AssessmentTrigger,
  AssessmentStatus,
  CompletedAssessment,
  AssessmentRecorderOptions,
  RepositoryAssessment,
} from './services/assessment-recorder.js';
export { refactoringInterpretation, TREND_LENGTH, DASHBOARD_DRIFT_ALERTS } from './services/health-dashboard.js';
// -- issues & dismiss-rule services (add exports here)
export { IssueService } from './services/issues.js';
export { DismissRuleService } from './services/dismiss-rules.js';
export { globProblem, lockProjectIssues, RULE_GLOB_OPTIONS, FILE_GLOB_OPTIONS } from './services/issue-records.js';
// -- PR analysis services (add exports here)
export { WebhookService } from './services/webhooks.js';
export type { GitHubDelivery } from './services/webhooks.js';
export { WEBHOOK_REPLAY_WINDOW_DAYS } from './services/webhooks.js';
export { readGitHubEvent } from './services/webhook-events.js';
export type { WebhookCommand } from './services/webhook-events.js';
export { AssessmentScheduler, assessmentIntervalOf, MIN_ASSESSMENT_INTERVAL_HOURS, MAX_ASSESSMENT_INTERVAL_HOURS } from './services/schedules.js';
export type { DueProject, TickResult, ScheduleLog } from './services/schedules.js';
export { PrAnalysisService } from './services/pr-analyses.js';
export type { EnqueuedPrAnalysis, PullRequestSync } from './services/pr-analyses.js';
export { PrAnalysisRecorder, maskCredentials } from './services/pr-analysis-recorder.js';
export type { PrAnalysisRun, PrAnalysisCompletion, CompletedPrAnalysis } from './services/pr-analysis-recorder.js';
export { pendingResult as pendingPrAnalysisResult } from './services/pr-analysis-records.js';
export { PrFeedbackService, changedLinesOf, feedbackEnabled, CHECK_RUN_NAME, COMMENT_MARKER, ANNOTATIONS_PER_REQUEST } from './services/pr-feedback.js';
export type { ChangedLines, PrFeedbackRecord, PrFeedbackOutcome, PrFeedbackOptions } from './services/pr-feedback.js';
export { GitHubPrFeedbackChannel, GitHubFeedbackError, retryAfterMsOf } from './code-hosts/github-pr-feedback.js';
export type { PullRequestFeedbackChannel, CheckRun, CheckRunState, CheckRunOutput, CheckRunAnnotation, IssueComment } from './ports/pr-feedback.js';
// -- PR analysis pipeline (diff, baseline, incremental analysis, classification, projection, readiness) and the LLM port
export { PrAnalysisPipeline, MAX_OTHER_PRS } from '@codehealth/engine/internal';
export type { PrPipelineInput, PrPipelineOutput, PrPipelineDeps } from '@codehealth/engine/internal';
export { baselineOfResult, scoringMetricsOf } from '@codehealth/engine/internal';
export type { PrBaseline } from '@codehealth/engine/internal';
export { localCheckouts } from '@codehealth/engine/internal';
export type { CommitCheckout, CommitCheckouts } from '@codehealth/engine/internal';
export { readPullRequestDiff, readPullRequestChange, mergeBaseOf } from '@codehealth/engine/internal';
export type { PullRequestChange, ReadDiffOptions } from '@codehealth/engine/internal';
export type { ChangedFile, ChangedSymbol, DiffHunk, PullRequestDiff, PullRequestInfo, ChangeStatus } from '@codehealth/engine/internal';
export { llmSlotFromEnv } from './llm/llm-slot.js';
export type { LlmSlot, LlmSlotName } from './llm/llm-slot.js';
export { OpenAiJsonClient, DEFAULT_LLM_TIMEOUT_MS } from './llm/openai-json-client.js';
export type { OpenAiJsonClientOptions } from './llm/openai-json-client.js';
export { LlmError } from './llm/json-completion.js';
export type { JsonCompletionClient, JsonCompletionRequest } from './llm/json-completion.js';
export {
  reviewDiffWithLlm,
  reviewPullRequestWithLlm,
  headFilesOf,
  largeModelClient,
  diffReviewerOf,
  withLlmFindings,
  LARGE_LLM_TIMEOUT_MS,
  LLM_ANALYZER_NAME,
} from './llm/diff-review-agent.js';
export type { DiffReviewInput, DiffReviewResult, DiffReviewer, ReviewFile } from './llm/diff-review-agent.js';
export type { DiffReviewBudget } from './llm/prompts.js';
export { narrateArchitectureReview, MAX_NARRATIVE_CHARS } from './llm/architecture-narrator.js';
export type { ArchitectureNarration } from './llm/architecture-narrator.js';
// -- architecture services (add exports here)
export { ArchitectureService, mergeConventionPatterns } from './services/architecture.js';
export { ArchitectureReviewService, ArchitectureReviewRecorder } from './services/architecture-reviews.js';
export type { RecordOutcome as ArchitectureReviewOutcome } from './services/architecture-reviews.js';
export { AdrService, ADR_TRANSITIONS } from './services/architecture-adrs.js';
export { buildArchitectureOverview, describeRepository, OVERVIEW_LIMITS } from './services/architecture-overview.js';
export { reviewArchitecture, ARCHITECTURE_REVIEW_DEFAULTS } from './services/architecture-review.js';
export { architectureIssueOf } from './services/architecture-findings.js';
export type { ArchitectureReviewOptions } from './services/architecture-review.js';
export { analyseStructure } from './services/architecture-structure.js';
export type { ArchitectureFacts, ArchitectureInput, ArchitectureSource, RepositoryStructure } from './services/architecture-structure.js';

// Wire schemas (spec section 2)
export * as api from './api/index.js';

// Test support: fresh migrated databases (PGlite always; Postgres with TEST_DATABASE_URL)
export { createTestDatabase, prepareTestTemplates, testPostgresUrl } from './store/test-database.js';
export type { TestDatabase, TestStoreKind, TestTemplates } from './store/test-database.js';

// Issue records: fingerprinted issues per run, dismiss-rule matching
export { insertContextIssues, applyDismissRules, compileDismissRule, fingerprintToken, SEVERITY_RANK } from './services/issue-records.js';
export type { IssueContext, IssueContextType, IssueInput, InsertedIssues, DismissRuleRecord, IssueMatchFields, ApplyScope } from './services/issue-records.js';

// -- cache (cached aggregates, locks, rate limits)
export { CACHE_KEY_PREFIX, LockBusyError } from './ports/cache.js';
export type { Cache, LockOptions, RateDecision } from './ports/cache.js';
export { MemoryCache } from './cache-adapters/memory-cache.js';
export { RedisCache } from './cache-adapters/redis-cache.js';
export type { RedisCacheOptions } from './cache-adapters/redis-cache.js';
export { ProjectCache, PROJECT_CACHE_TTL_SECONDS } from './services/project-cache.js';

// -- graph store (the code graph kept per repository; graph rules)
export { storedGraphOf, layerOf, MAX_DEPENDENT_DEPTH } from './ports/graph-store.js';
export type { GraphStore, StoredGraph, StoredSymbol, StoredImport, ImportPair, Dependent, LayerEdge } from './ports/graph-store.js';
export { EmbeddedGraphStore } from './graph-store/embedded-graph-store.js';
export { Neo4jGraphStore } from './graph-store/neo4j-graph-store.js';
export type { Neo4jGraphStoreOptions } from './graph-store/neo4j-graph-store.js';
export { runGraphRules, importCycles, GRAPH_RULES } from './graph-store/graph-rules.js';
