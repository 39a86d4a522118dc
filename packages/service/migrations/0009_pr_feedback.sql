-- Pull-request feedback through the GitHub App (issue 21): the lines each analysed change touched
-- at head ({"path": [[start, end], ...]}), so that check-run annotations are put on changed lines
-- only, and what became of the feedback of a run ({"status": "posted"|"not_posted"|"skipped",
-- "reason"?, "at"}). NULL: no feedback was attempted (an analysis before this migration, or one
-- still running). The sticky comment is found again by its marker, never by a stored id.
ALTER TABLE pr_analyses ADD COLUMN changed_lines jsonb;
ALTER TABLE pr_analyses ADD COLUMN feedback jsonb;
