// The application services over one store and the configured ports: what the REST host, the
// CLI and the workflow activities call. Hosts build one set per process.
import type { CodeHosts } from '../ports/code-host.js';
import type { WorkflowStarter } from '../ports/workflow-starter.js';
import type { Database } from '../store/database.js';
import { ProjectAccess } from './access.js';
import { ApiKeyService } from './api-keys.js';
import { AssessmentRecorder } from './assessment-recorder.js';
import { HealthService } from './health.js';
import { InvitationService } from './invitations.js';
import { MemberService } from './members.js';
import { OnboardingService } from './onboarding.js';
import { ProjectService } from './projects.js';
import { UserService } from './users.js';

export interface ServiceOptions {
  /** Accept `file://` repositories (embedded mode or CODEHEALTH_ALLOW_LOCAL_REPOS=1). */
  allowLocalRepos: boolean;
  /** How long an invitation stays valid. */
  invitationTtlDays: number;
}

export const DEFAULT_SERVICE_OPTIONS: ServiceOptions = { allowLocalRepos: false, invitationTtlDays: 7 };

export interface ServiceDeps {
  db: Database;
  workflows: WorkflowStarter;
  codeHosts: CodeHosts;
  options?: Partial<ServiceOptions>;
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
  // -- members & invitations fields
  readonly members: MemberService;
  readonly invitations: InvitationService;
  // -- repositories fields
  // -- health fields
  readonly assessments: AssessmentRecorder;
  readonly health: HealthService;
  // -- issues & dismiss-rule fields
  // -- PR analysis fields
  // -- architecture fields

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
    // -- members & invitations init
    this.members = new MemberService(deps.db, this.access);
    this.invitations = new InvitationService(deps.db, this.options.invitationTtlDays);
    // -- repositories init
    // -- health init
    this.assessments = new AssessmentRecorder(deps.db);
    this.health = new HealthService(deps.db, this.access, deps.workflows, this.assessments);
    // -- issues & dismiss-rule init
    // -- PR analysis init
    // -- architecture init
  }
}
