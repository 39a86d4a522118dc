-- CodeHealth relational schema, version 1. Postgres is the source of truth; the graph store and
-- the cache are derived from these tables. Column names equal the API's field names where a
-- column is exposed. Counts and sizes are `integer`, scores `double precision`: no int8/numeric,
-- so postgres.js and PGlite return plain numbers.

CREATE TABLE users (
  id uuid PRIMARY KEY,
  email text NOT NULL,
  name text NOT NULL DEFAULT '',
  idp_subject text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));
CREATE UNIQUE INDEX users_idp_subject_key ON users (idp_subject) WHERE idp_subject IS NOT NULL;

-- Keys are stored as SHA-256 of the key (256 random bits, so a fast hash is enough); the prefix
-- finds the row, the hash is compared in constant time by the application.
CREATE TABLE api_keys (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  key_prefix text NOT NULL,
  key_hash text NOT NULL,
  scopes jsonb NOT NULL DEFAULT '[]'::jsonb,
  last_used_at timestamptz,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX api_keys_prefix_idx ON api_keys (key_prefix);
CREATE INDEX api_keys_user_idx ON api_keys (user_id);

CREATE TABLE projects (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  key text NOT NULL UNIQUE,
  description text NOT NULL DEFAULT '',
  settings jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE project_members (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('owner', 'member')),
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (project_id, user_id)
);
CREATE INDEX project_members_user_idx ON project_members (user_id);

CREATE TABLE invitations (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  email text NOT NULL,
  role text NOT NULL CHECK (role IN ('owner', 'member')),
  invited_by_user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'accepted', 'expired', 'revoked')),
  expires_at timestamptz NOT NULL,
  accepted_by_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  accepted_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX invitations_project_idx ON invitations (project_id);

-- Code-host App installations, and which users may see them (sync associates the caller).
CREATE TABLE vcs_installations (
  id uuid PRIMARY KEY,
  provider text NOT NULL,
  installation_id bigint NOT NULL,
  account_login text NOT NULL,
  account_type text NOT NULL,
  status text NOT NULL DEFAULT 'active',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (provider, installation_id)
);

CREATE TABLE vcs_installation_users (
  installation_uuid uuid NOT NULL REFERENCES vcs_installations (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  PRIMARY KEY (installation_uuid, user_id)
);

-- A repository known to the service: synced from an installation or added as public/local.
-- `clone_url` is what the workers fetch; `provider` is `github` or `local`.
CREATE TABLE repositories (
  id uuid PRIMARY KEY,
  provider text NOT NULL,
  vcs_id bigint NOT NULL DEFAULT 0,
  installation_id bigint NOT NULL DEFAULT 0,
  owner text NOT NULL,
  name text NOT NULL,
  full_name text NOT NULL,
  url text NOT NULL,
  clone_url text NOT NULL,
  description text NOT NULL DEFAULT '',
  default_branch text NOT NULL DEFAULT 'main',
  analyzers jsonb NOT NULL DEFAULT '[]'::jsonb,
  private boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (provider, url)
);
CREATE INDEX repositories_installation_idx ON repositories (installation_id);

-- Linking is a row here; unlinking deletes the row and keeps every analysis record.
CREATE TABLE project_repositories (
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  repository_id uuid NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
  linked_by_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  linked_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (project_id, repository_id)
);
CREATE INDEX project_repositories_repo_idx ON project_repositories (repository_id);

-- Pull requests known from the code host (synced metadata; local repos: refs/pull/N/head).
CREATE TABLE pull_requests (
  id uuid PRIMARY KEY,
  repository_id uuid NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
  pr_number integer NOT NULL,
  title text NOT NULL DEFAULT '',
  body text NOT NULL DEFAULT '',
  state text NOT NULL DEFAULT 'open',
  author text NOT NULL DEFAULT '',
  base_branch text NOT NULL DEFAULT '',
  head_branch text NOT NULL DEFAULT '',
  base_sha text NOT NULL DEFAULT '',
  head_sha text NOT NULL DEFAULT '',
  merged boolean NOT NULL DEFAULT false,
  synced_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (repository_id, pr_number)
);

CREATE TABLE onboarding_sessions (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  repository_ids jsonb NOT NULL DEFAULT '[]'::jsonb,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'completed', 'failed')),
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);

-- Progress events of an onboarding session, in order (late SSE subscribers replay them).
CREATE TABLE onboarding_events (
  session_id uuid NOT NULL REFERENCES onboarding_sessions (id) ON DELETE CASCADE,
  seq integer NOT NULL,
  type text NOT NULL,
  data jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (session_id, seq)
);

CREATE TABLE health_assessments (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  trigger_type text NOT NULL CHECK (trigger_type IN ('manual', 'push', 'pr_merge', 'scheduled')),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'completed', 'failed')),
  overall_score double precision,
  overall_grade text,
  security_score double precision,
  runtime_risks_score double precision,
  test_coverage_score double precision,
  code_smell_score double precision,
  duplication_score double precision,
  dead_code_score double precision,
  consistency_score double precision,
  compliance_score double precision,
  critical_count integer NOT NULL DEFAULT 0,
  high_count integer NOT NULL DEFAULT 0,
  medium_count integer NOT NULL DEFAULT 0,
  low_count integer NOT NULL DEFAULT 0,
  info_count integer NOT NULL DEFAULT 0,
  total_lines_of_code integer NOT NULL DEFAULT 0,
  test_lines_of_code integer NOT NULL DEFAULT 0,
  actual_coverage_percent double precision,
  structural_coverage_pct double precision NOT NULL DEFAULT 0,
  mock_usage_pct double precision NOT NULL DEFAULT 0,
  -- dashboard metrics (churn_rate, refactoring_rate, duplication_index, assertion_density, ...)
  metrics jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- convention patterns as in the dashboard's convention_consistency.patterns
  conventions jsonb NOT NULL DEFAULT '[]'::jsonb,
  -- per repository: {id, name, full_name, language, total_loc, test_loc, lines_added_30d, ...}
  repo_stats jsonb NOT NULL DEFAULT '[]'::jsonb,
  -- per repository: {repository_id, sha}
  commits jsonb NOT NULL DEFAULT '[]'::jsonb,
  workflow_id text,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  completed_at timestamptz
);
CREATE INDEX health_assessments_project_idx ON health_assessments (project_id, created_at DESC);

CREATE TABLE drift_alerts (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  assessment_id uuid NOT NULL REFERENCES health_assessments (id) ON DELETE CASCADE,
  drift_type text NOT NULL CHECK (drift_type IN ('score', 'coverage', 'convention', 'churn')),
  category text NOT NULL,
  previous_value double precision NOT NULL,
  current_value double precision NOT NULL,
  change double precision NOT NULL,
  message text NOT NULL,
  affected_files jsonb NOT NULL DEFAULT '[]'::jsonb,
  dismissed boolean NOT NULL DEFAULT false,
  detected_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX drift_alerts_project_idx ON drift_alerts (project_id, detected_at DESC);

CREATE TABLE pr_analyses (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  repository_id uuid NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
  pr_number integer NOT NULL,
  head_sha text NOT NULL,
  base_sha text,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'completed', 'failed')),
  classification jsonb,
  merge_readiness jsonb,
  health_impact jsonb,
  health_projection jsonb,
  graph_impact jsonb,
  scope_drift jsonb,
  impact_zones jsonb,
  conflicts jsonb,
  stacked_prs jsonb,
  analysis_run_id uuid NOT NULL,
  workflow_id text,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  completed_at timestamptz
);
CREATE INDEX pr_analyses_project_idx ON pr_analyses (project_id, created_at DESC);
CREATE INDEX pr_analyses_pr_idx ON pr_analyses (repository_id, pr_number, created_at DESC);

-- Issues of one analysis run (context). The fingerprint (rule, file, enclosing symbol,
-- normalised snippet) is the identity that survives line moves and re-analysis.
CREATE TABLE issues (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  repository_id uuid REFERENCES repositories (id) ON DELETE SET NULL,
  context_type text NOT NULL CHECK (context_type IN ('pr_analysis', 'health_assessment', 'architecture_review', 'push')),
  context_id uuid NOT NULL,
  fingerprint text NOT NULL,
  source text NOT NULL CHECK (source IN ('static_analyzer', 'llm_agent', 'graph_rule', 'convention', 'architecture')),
  severity text NOT NULL CHECK (severity IN ('critical', 'high', 'medium', 'low', 'info')),
  severity_rank integer NOT NULL,
  category text NOT NULL CHECK (category IN ('security', 'runtime', 'testing', 'code_smell', 'dead_code', 'duplication', 'consistency', 'compliance')),
  file_path text NOT NULL,
  file_group text NOT NULL,
  line_start integer NOT NULL,
  line_end integer NOT NULL,
  code_snippet text NOT NULL DEFAULT '',
  validated boolean NOT NULL DEFAULT false,
  title text NOT NULL,
  description text NOT NULL DEFAULT '',
  why_it_matters text NOT NULL DEFAULT '',
  suggested_action text NOT NULL DEFAULT '',
  rule_id text NOT NULL,
  analyzer_name text NOT NULL,
  confidence integer NOT NULL,
  auto_fixable boolean NOT NULL DEFAULT false,
  is_new boolean NOT NULL DEFAULT false,
  is_dismissed boolean NOT NULL DEFAULT false,
  dismissed_by_rule_id uuid,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX issues_project_context_idx ON issues (project_id, context_type, context_id);
CREATE INDEX issues_project_fingerprint_idx ON issues (project_id, fingerprint);

CREATE TABLE dismiss_rules (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  source_type text CHECK (source_type IN ('static_analyzer', 'llm_agent', 'graph_rule', 'convention', 'architecture')),
  rule_pattern text NOT NULL,
  secondary_pattern text,
  scope text NOT NULL DEFAULT 'global' CHECK (scope IN ('global', 'project', 'file')),
  file_path text NOT NULL DEFAULT '',
  action text NOT NULL DEFAULT 'dismiss' CHECK (action IN ('dismiss', 'false_positive', 'wont_fix')),
  reason text NOT NULL DEFAULT '',
  match_count integer NOT NULL DEFAULT 0,
  created_by_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX dismiss_rules_project_idx ON dismiss_rules (project_id);

-- A restore of one issue (by fingerprint) overrides dismiss rules created before it.
CREATE TABLE issue_restorations (
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  fingerprint text NOT NULL,
  restored_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (project_id, fingerprint)
);

CREATE TABLE architecture_reviews (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'completed', 'failed')),
  summary text NOT NULL DEFAULT '',
  findings jsonb NOT NULL DEFAULT '[]'::jsonb,
  metrics jsonb NOT NULL DEFAULT '{}'::jsonb,
  workflow_id text,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz
);
CREATE INDEX architecture_reviews_project_idx ON architecture_reviews (project_id, created_at DESC);

-- The latest architecture overview per project (regenerated by onboarding and reviews).
CREATE TABLE architecture_overviews (
  project_id uuid PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
  overview jsonb NOT NULL,
  generated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE conventions (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  dominant_value text NOT NULL,
  consistency double precision NOT NULL,
  total_count integer NOT NULL,
  deviation_count integer NOT NULL,
  status text NOT NULL DEFAULT 'detected' CHECK (status IN ('detected', 'accepted', 'rejected')),
  examples jsonb NOT NULL DEFAULT '[]'::jsonb,
  detected_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (project_id, name)
);

CREATE TABLE adrs (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  number integer NOT NULL,
  title text NOT NULL,
  status text NOT NULL DEFAULT 'proposed' CHECK (status IN ('proposed', 'accepted', 'rejected', 'deprecated', 'superseded')),
  context text NOT NULL DEFAULT '',
  decision text NOT NULL DEFAULT '',
  consequences text NOT NULL DEFAULT '',
  superseded_by uuid REFERENCES adrs (id) ON DELETE SET NULL,
  created_by_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (project_id, number)
);

-- Durable jobs of the embedded workflow runner (Temporal keeps its own state).
CREATE TABLE jobs (
  id uuid PRIMARY KEY,
  workflow_id text NOT NULL UNIQUE,
  kind text NOT NULL,
  input jsonb NOT NULL,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'completed', 'failed', 'cancelled')),
  concurrency_key text,
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL DEFAULT 3,
  run_after timestamptz NOT NULL DEFAULT now(),
  locked_by text,
  locked_at timestamptz,
  error text,
  result jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX jobs_runnable_idx ON jobs (status, run_after);

-- Inbound webhook deliveries already processed (idempotency on X-GitHub-Delivery).
CREATE TABLE webhook_deliveries (
  delivery_id text PRIMARY KEY,
  event text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now()
);
