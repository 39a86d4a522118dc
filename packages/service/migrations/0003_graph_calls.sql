-- The code graph's export and call edges: the kind of each import edge (re-exports are the
-- module's export edges) with the names a re-export passes on under another name, and the calls
-- from one module's symbols to another module's exports. Derived data, like 0002: the next
-- assessment or `codehealth graph rebuild` fills them for graphs stored before this migration.
ALTER TABLE graph_imports ADD COLUMN kind text NOT NULL DEFAULT 'static';
ALTER TABLE graph_imports ADD COLUMN aliases jsonb NOT NULL DEFAULT '[]'::jsonb;

CREATE TABLE graph_calls (
  repository_id uuid NOT NULL REFERENCES graph_snapshots (repository_id) ON DELETE CASCADE,
  from_path text NOT NULL,
  caller text NOT NULL,
  to_path text NOT NULL,
  name text NOT NULL,
  line integer NOT NULL,
  count integer NOT NULL
);
CREATE INDEX graph_calls_to_idx ON graph_calls (repository_id, to_path, name);

ALTER TABLE graph_snapshots ADD COLUMN calls integer NOT NULL DEFAULT 0;
