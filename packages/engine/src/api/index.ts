// The wire schemas of the REST API, one module per resource.
export * from './common.js';
export * from './projects.js';
export * from './api-keys.js';
// -- members & invitations schemas
export * from './members.js';
// -- repositories schemas
// -- health schemas
export * from './health.js';
// -- issues & dismiss-rule schemas
// -- PR analysis schemas
// -- architecture schemas
