// The graph store port is a contract of the engine (contracts/graph-store.ts): the PR analysis'
// graph impact reads through it and the service's adapters implement it. Kept here for the imports
// of the application layer.
export * from '../contracts/graph-store.js';
