// The model port is a contract of the engine (contracts/json-completion.ts): the PR analysis asks
// a model through it and the service's adapters implement it. Kept here for the imports of the
// application layer.
export { LlmError } from '@codehealth/engine/internal';
export type { JsonCompletionClient, JsonCompletionRequest } from '@codehealth/engine/internal';
