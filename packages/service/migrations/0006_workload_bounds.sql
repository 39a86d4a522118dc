-- Bounds on what one large repository or one busy user costs everyone else:
-- * an assessment's issues are written in batches before the run is published; the attempt that
--   writes them holds `recording_token` (a retried or duplicate attempt takes it over), and issues
--   of a run are visible only once the run is `completed`;
-- * the full issue list is kept for a project's latest runs only: `issues_pruned_at` marks an
--   older run whose issues were removed (its scores, counts and drift alerts stay);
-- * embedded jobs know their project and the user they count against (who asked for them, else
--   the project's first owner), so the runner claims round-robin across users and projects.
ALTER TABLE health_assessments ADD COLUMN recording_token uuid;
ALTER TABLE health_assessments ADD COLUMN issues_pruned_at timestamptz;

ALTER TABLE jobs ADD COLUMN project_id uuid;
ALTER TABLE jobs ADD COLUMN user_id uuid;
UPDATE jobs SET project_id = (input ->> 'projectId')::uuid
 WHERE project_id IS NULL AND input ->> 'projectId' ~ '^[0-9a-fA-F-]{36}$';
CREATE INDEX jobs_project_claims_idx ON jobs (project_id, locked_at);
CREATE INDEX jobs_user_claims_idx ON jobs (user_id, locked_at);
