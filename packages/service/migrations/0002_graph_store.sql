-- The embedded graph store: the code graph of each repository's latest assessed commit
-- (derived data: rebuilt by the next assessment or `codehealth graph rebuild`).
CREATE TABLE graph_snapshots (
  repository_id uuid PRIMARY KEY REFERENCES repositories (id) ON DELETE CASCADE,
  commit_sha text NOT NULL,
  files integer NOT NULL,
  imports integer NOT NULL,
  written_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE graph_files (
  repository_id uuid NOT NULL REFERENCES graph_snapshots (repository_id) ON DELETE CASCADE,
  path text NOT NULL,
  PRIMARY KEY (repository_id, path)
);

CREATE TABLE graph_symbols (
  repository_id uuid NOT NULL REFERENCES graph_snapshots (repository_id) ON DELETE CASCADE,
  file_path text NOT NULL,
  name text NOT NULL,
  kind text NOT NULL,
  exported boolean NOT NULL,
  line_start integer NOT NULL,
  line_end integer NOT NULL
);
CREATE INDEX graph_symbols_file_idx ON graph_symbols (repository_id, file_path);

CREATE TABLE graph_imports (
  repository_id uuid NOT NULL REFERENCES graph_snapshots (repository_id) ON DELETE CASCADE,
  from_path text NOT NULL,
  to_path text NOT NULL,
  names jsonb NOT NULL DEFAULT '[]'::jsonb,
  type_only boolean NOT NULL DEFAULT false,
  line integer NOT NULL
);
CREATE INDEX graph_imports_to_idx ON graph_imports (repository_id, to_path);
CREATE INDEX graph_imports_from_idx ON graph_imports (repository_id, from_path);
