-- The role of an issue's file (production, test, benchmark, example, docs, tooling, fixture,
-- generated, vendored), as the run classified it: findings outside production code are reported
-- but count in no score. NULL for issues recorded before roles existed.
ALTER TABLE issues ADD COLUMN file_role text;
