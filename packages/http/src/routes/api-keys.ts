// API keys of the caller (spec section 4, "API keys"; section 5).
import { api } from '@codehealth/service';
import { z } from 'zod';
import { uuidParam } from '../params.js';
import { defineRoute } from '../route.js';

const TAG = 'API keys';

export const apiKeyRoutes = [
  defineRoute({
    method: 'POST',
    path: '/api-keys',
    operationId: 'createApiKey',
    summary: "Create an API key for the caller's user; the full key is in this response only",
    description: 'The key has the same project access as its user. `name` is required, `description` optional. At most 100 active keys per user (409 beyond).',
    tag: TAG,
    body: api.CreateApiKeyBody,
    status: 201,
    response: api.CreatedApiKeySchema,
    errors: [409],
    handler: ({ services, actor, body }) => services.apiKeys.create(actor.userId, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/api-keys',
    operationId: 'listApiKeys',
    summary: "The caller's active keys, with their prefix only",
    tag: TAG,
    status: 200,
    response: api.ApiKeyListSchema,
    handler: async ({ services, actor }) => ({ keys: await services.apiKeys.list(actor) }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api-keys/{keyId}',
    operationId: 'revokeApiKey',
    summary: "Revoke one of the caller's keys; it yields 401 from then on",
    tag: TAG,
    params: z.object({ keyId: uuidParam('keyId') }),
    status: 204,
    errors: [404],
    handler: ({ services, actor, params }) => services.apiKeys.revoke(actor, params.keyId),
  }),
];
