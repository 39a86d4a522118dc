// The application services over one store and the configured ports: what the REST host, the
// CLI and the workflow activities call. Hosts build one set per process.
import type { Cache } from '../ports/cache.js';
import { MemoryCache } from '../cache-adapters/memory-cache.js';
import { ProjectCache } from './project-cache.js';
import type { GraphStore } from '../ports/graph-store.js';
import { EmbeddedGraphStore } from '../graph-store/embedded-graph-store.js';
import type { CodeHosts } from '../ports/code-host.js';
import type { WorkflowStarter } from '../ports/workflow-starter.js';
import type { Database } from '../store/database.js';
import { ProjectAccess } from './access.js';
import { ApiKeyService } from './api-keys.js';
import { AssessmentRecorder } from './assessment-recorder.js';
import { HealthService } from './health.js';
import { DismissRuleService } from './dismiss-rules.js';
import { IssueService } from './issues.js';
import { InstallationService } from './installations.js';
import { InvitationService } from './invitations.js';
import { MemberService } from './members.js';
import { OnboardingService } from './onboarding.js';
import { PrAnalysisRecorder } from './pr-analysis-recorder.js';
import { PrAnalysisService } from './pr-analyses.js';
import { ProjectService } from './projects.js';
import { RepositoryService } from './repositories.js';
import { UserService } from './users.js';
import { ArchitectureService } from './architecture.js';
import { ArchitectureReviewRecorder, ArchitectureReviewService } from './architecture-reviews.js';
import { AdrService } from './architecture-adrs.js';
import { WebhookService } from './webhooks.js';
import { AssessmentScheduler } from './schedules.js';
import { PrFeedbackService } from './pr-feedback.js';

export interface ServiceOptions {
  /** Accept `file://` repositories (embedded mode or CODEHEALTH_ALLOW_LOCAL_REPOS=1). */
  allowLocalRepos: boolean;
  /** How long an invitation stays valid. */
  invitationTtlDays: number;
  /** Issues listed per rule and repository of an assessment (default 1,000; 0: all). */
  maxIssuesPerRule?: number;
  /** Completed assessments per project that keep their full issue list (default 10; 0: all). */
  issueRetentionRuns?: number;
  /** The API's public root (BACKEND_URL), linked from pull-request feedback; without it paths are shown. */
  apiUrl?: string;
}

export const DEFAULT_SERVICE_OPTIONS: ServiceOptions = { allowLocalRepos: false, invitationTtlDays: 7 };

export interface ServiceDeps {
  db: Database;
  workflows: WorkflowStarter;
  codeHosts: CodeHosts;
  options?: Partial<ServiceOptions>;
  /** Cached aggregates, locks and rate limits; default: in-process (MemoryCache). */
  cache?: Cache;
  /** The code graph kept per repository; default: tables of the same store. */
  graphStore?: GraphStore;
  /** Operator log: what retention removed, or why it failed. */
  log?: (line: string) => void;
}

export class Services {
  readonly db: Database;
  readonly options: ServiceOptions;
  readonly workflows: WorkflowStarter;
  readonly codeHosts: CodeHosts;
  readonly access: ProjectAccess;
  readonly users: UserService;
  readonly apiKeys: ApiKeyService;
  readonly projects: ProjectService;
  readonly onboarding: OnboardingService;
  // -- cache
  readonly cache: Cache;
  readonly projectCache: ProjectCache;
  // -- graph store
  readonly graphStore: GraphStore;
  // -- members & invitations fields
  readonly members: MemberService;
  readonly invitations: InvitationService;
  // -- repositories fields
  readonly repositories: RepositoryService;
  readonly installations: InstallationService;
  // -- health fields
  readonly assessments: AssessmentRecorder;
  readonly health: HealthService;
  // -- issues & dismiss-rule fields
  readonly issues: IssueService;
  readonly dismissRules: DismissRuleService;
  // -- PR analysis fields
  readonly webhooks: WebhookService;
  readonly schedules: AssessmentScheduler;
  readonly prAnalyses: PrAnalysisService;
  readonly prAnalysisRecorder: PrAnalysisRecorder;
  readonly prFeedback: PrFeedbackService;
  // -- architecture fields
  readonly architecture: ArchitectureService;
  readonly architectureReviews: ArchitectureReviewService;
  readonly architectureReviewRecorder: ArchitectureReviewRecorder;
  readonly adrs: AdrService;

  constructor(deps: ServiceDeps) {
    this.db = deps.db;
    this.options = { ...DEFAULT_SERVICE_OPTIONS, ...deps.options };
    this.workflows = deps.workflows;
    this.codeHosts = deps.codeHosts;
    this.access = new ProjectAccess(deps.db);
    this.users = new UserService(deps.db);
    this.apiKeys = new ApiKeyService(deps.db);
    this.projects = new ProjectService(deps.db, this.access);
    this.onboarding = new OnboardingService(deps.db, this.access);
    // -- cache
    this.cache = deps.cache ?? new MemoryCache();
    this.projectCache = new ProjectCache(this.cache);
    // -- graph store
    this.graphStore = deps.graphStore ?? new EmbeddedGraphStore(deps.db);
    // -- members & invitations init
    this.members = new MemberService(deps.db, this.access);
    this.invitations = new InvitationService(deps.db, this.options.invitationTtlDays);
    // -- repositories init
    this.repositories = new RepositoryService(deps.db, this.access, deps.codeHosts, deps.workflows, { allowLocalRepos: this.options.allowLocalRepos });
    this.installations = new InstallationService(deps.db, deps.codeHosts);
    // -- health init
    this.assessments = new AssessmentRecorder(deps.db, {
      onChange: (projectId) => this.projectCache.invalidate(projectId),
      maxIssuesPerRule: this.options.maxIssuesPerRule,
      issueRetentionRuns: this.options.issueRetentionRuns,
      onRetention: (projectId, outcome) =>
        deps.log?.(
          outcome instanceof Error
            ? `retention: project ${projectId}: ${outcome.message}`
            : `retention: project ${projectId}: removed the issues of ${outcome.assessments} older assessment(s), ${outcome.issues} rows`,
        ),
    });
    this.health = new HealthService(deps.db, this.access, deps.workflows, this.assessments, this.projectCache);
    // -- issues & dismiss-rule init
    this.issues = new IssueService(deps.db, this.access, this.projectCache);
    this.dismissRules = new DismissRuleService(deps.db, this.access);
    // -- PR analysis init
    this.prAnalysisRecorder = new PrAnalysisRecorder(deps.db, (projectId) => this.projectCache.invalidate(projectId));
    this.prAnalyses = new PrAnalysisService(deps.db, this.access, deps.workflows, this.repositories, this.prAnalysisRecorder, this.projectCache);
    this.prFeedback = new PrFeedbackService(deps.db, deps.codeHosts, { apiUrl: this.options.apiUrl });
    // webhooks and schedules need the health and PR analysis services above
    this.webhooks = new WebhookService(deps.db, this.health, this.prAnalyses, deps.codeHosts);
    this.schedules = new AssessmentScheduler(deps.db, this.health);
    // -- architecture init
    this.architecture = new ArchitectureService(deps.db, this.access, deps.workflows);
    this.architectureReviews = new ArchitectureReviewService(deps.db, this.access, deps.workflows);
    this.architectureReviewRecorder = new ArchitectureReviewRecorder(deps.db, this.architecture);
    this.adrs = new AdrService(deps.db, this.access);
  }
}
