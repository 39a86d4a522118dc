// The wire schemas of the REST API, one module per resource.
export * from './common.js';
export * from './projects.js';
export * from './api-keys.js';
// -- members & invitations schemas
export * from './members.js';
// -- repositories schemas
export * from './repositories.js';
// -- health schemas
export * from './health.js';
export * from './score-ledger.js';
// -- issues & dismiss-rule schemas
export * from './issues.js';
// -- PR analysis schemas
export * from './pr-analyses.js';
// -- architecture schemas
export * from './architecture.js';
// -- webhooks schemas
export * from './webhooks.js';
