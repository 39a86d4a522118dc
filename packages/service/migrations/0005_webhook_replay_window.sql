-- Webhook replay window (issue 15): the signature covers only the body, so a captured delivery
-- re-sent under a new X-GitHub-Delivery id verifies again. Each recorded delivery keeps the SHA-256
-- of the exact body received; the unique index makes the same body a duplicate while the digest is
-- kept. The service releases a digest (sets it NULL) once it is older than the replay window;
-- deliveries recorded before this migration have none.
ALTER TABLE webhook_deliveries ADD COLUMN body_sha256 text;
CREATE UNIQUE INDEX webhook_deliveries_body_sha256_key ON webhook_deliveries (body_sha256);
