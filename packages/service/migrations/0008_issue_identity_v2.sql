-- Issue identity v2 (issue 18): an issue's fingerprint is its rule, file, qualified enclosing
-- symbol and the anchor's own normalised text (for metric rules the symbol alone), no longer the
-- symbol's first lines, so that formatting or an edit elsewhere in a function keeps its identity.
-- Stored issues keep no enclosing symbol to recompute that from. So their fingerprint stays as it
-- is, and new rows also carry the former fingerprint as `legacy_fingerprint`: dismiss rules pinned
-- to `fingerprint:<fp>`, restorations and `is_new` match an issue on either. A NULL
-- `legacy_fingerprint` marks a row recorded before v2 (its `fingerprint` is the former one). The
-- mapping is completed as runs meet each issue again (services/issue-records.ts,
-- adoptLegacyIdentities): the older rows of that issue take its v2 fingerprint and rules pinned
-- to the former one are re-pinned to it, so no dismissal is lost.
ALTER TABLE issues ADD COLUMN legacy_fingerprint text;
CREATE INDEX issues_project_legacy_fingerprint_idx ON issues (project_id, legacy_fingerprint) WHERE legacy_fingerprint IS NOT NULL;
-- What v2 identity and PR comparisons read back from a stored issue: its enclosing symbol and its
-- measured values (a finding's `data`, e.g. {"complexity": 43, "threshold": 15}). NULL before v2.
ALTER TABLE issues ADD COLUMN symbol text;
ALTER TABLE issues ADD COLUMN data jsonb;
-- Of a metric issue measuring its anchored code (a long function): a hash of that code with
-- comments and formatting left out, so a re-formatted function is not a worsened one.
ALTER TABLE issues ADD COLUMN anchor_shape text;
-- Issues of a PR analysis: how each changed against the PR's base (a metric issue whose value got
-- worse is `worsened`, not new) and the former headline value when known. NULL elsewhere.
ALTER TABLE issues ADD COLUMN change text CHECK (change IN ('new', 'worsened', 'improved', 'unchanged'));
ALTER TABLE issues ADD COLUMN previous_value double precision;
