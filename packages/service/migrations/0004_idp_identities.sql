-- Identity-provider identities are (issuer, subject): a subject is unique only within its issuer,
-- so a token from another issuer that reuses a `sub` never maps to this user. Subjects recorded
-- before this migration keep idp_issuer NULL; the configured issuer's first token with such a
-- subject claims the row (existing users keep working).
ALTER TABLE users ADD COLUMN idp_issuer text;
DROP INDEX users_idp_subject_key;
CREATE UNIQUE INDEX users_idp_identity_key ON users (idp_issuer, idp_subject) WHERE idp_issuer IS NOT NULL;
CREATE UNIQUE INDEX users_idp_legacy_subject_key ON users (idp_subject) WHERE idp_issuer IS NULL AND idp_subject IS NOT NULL;
