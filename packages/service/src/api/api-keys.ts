// Wire schemas of API keys (spec section 2, "API key"; section 5).
import { z } from 'zod';
import { Timestamp, Uuid } from './common.js';

const keyFields = {
  id: Uuid,
  name: z.string(),
  description: z.string(),
  key_prefix: z.string().meta({ description: 'leading characters of the key, safe to display' }),
  scopes: z.array(z.string()).meta({ description: "reserved; always empty: a key has its user's permissions" }),
};

export const CreatedApiKeySchema = z
  .object({ ...keyFields, key: z.string().meta({ description: 'the full key; returned only here' }), created_at: Timestamp })
  .meta({ id: 'CreatedApiKey' });
export type CreatedApiKey = z.infer<typeof CreatedApiKeySchema>;

export const ApiKeySchema = z.object({ ...keyFields, last_used_at: Timestamp.nullable(), created_at: Timestamp }).meta({ id: 'ApiKey' });
export type ApiKey = z.infer<typeof ApiKeySchema>;

export const ApiKeyListSchema = z.object({ keys: z.array(ApiKeySchema) }).meta({ id: 'ApiKeyList' });

export const CreateApiKeyBody = z
  .object({
    name: z.string().trim().min(1).max(200),
    description: z.string().max(2_000).optional(),
  })
  .strict()
  .meta({ id: 'CreateApiKeyRequest' });
export type CreateApiKeyInput = z.infer<typeof CreateApiKeyBody>;
