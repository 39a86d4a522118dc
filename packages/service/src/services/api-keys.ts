// API keys: 256 random bits, shown once, stored as SHA-256, found by prefix and compared in
// constant time. A key authenticates as its user and reaches that user's projects.
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { ApiKey, CreateApiKeyInput, CreatedApiKey } from '../api/api-keys.js';
import type { Sql } from '../store/database.js';
import type { Actor } from './actor.js';
import { ConflictError, NotFoundError, UnauthorizedError } from './errors.js';
import { iso } from './time.js';

/** Keys look like `chk_<43 base64url chars>`; the first 12 characters are the displayable prefix. */
export const API_KEY_PREFIX = 'chk_';
const PREFIX_LENGTH = 12;
export const MAX_KEYS_PER_USER = 100;
/** `last_used_at` is written at most this often per key, so reads do not become writes. */
const LAST_USED_RESOLUTION_MS = 60_000;

const hashOf = (key: string): Buffer => createHash('sha256').update(key, 'utf8').digest();

export function generateApiKey(): { key: string; prefix: string; hash: string } {
  const key = API_KEY_PREFIX + randomBytes(32).toString('base64url');
  return { key, prefix: key.slice(0, PREFIX_LENGTH), hash: hashOf(key).toString('hex') };
}

interface KeyRow extends Record<string, unknown> {
  id: string;
  name: string;
  description: string;
  key_prefix: string;
  scopes: string[];
  last_used_at: Date | null;
  created_at: Date;
}

export class ApiKeyService {
  constructor(private readonly db: Sql) {}

  async create(userId: string, input: CreateApiKeyInput): Promise<CreatedApiKey> {
    const [{ n } = { n: 0 }] = await this.db.query<{ n: number }>('SELECT count(*)::int AS n FROM api_keys WHERE user_id = $1 AND revoked_at IS NULL', [
      userId,
    ]);
    if (n >= MAX_KEYS_PER_USER) throw new ConflictError(`a user may hold at most ${MAX_KEYS_PER_USER} active API keys; revoke one first`);
    const generated = generateApiKey();
    const [row] = await this.db.query<KeyRow>(
      `INSERT INTO api_keys (id, user_id, name, description, key_prefix, key_hash)
       VALUES ($1, $2, $3, $4, $5, $6)
       RETURNING id, name, description, key_prefix, scopes, last_used_at, created_at`,
      [randomUUID(), userId, input.name, input.description ?? '', generated.prefix, generated.hash],
    );
    return { ...this.wire(row!), key: generated.key };
  }

  async list(actor: Actor): Promise<ApiKey[]> {
    const rows = await this.db.query<KeyRow>(
      `SELECT id, name, description, key_prefix, scopes, last_used_at, created_at
         FROM api_keys WHERE user_id = $1 AND revoked_at IS NULL ORDER BY created_at, id`,
      [actor.userId],
    );
    return rows.map((row) => ({ ...this.wire(row), last_used_at: iso(row.last_used_at) }));
  }

  /** Revokes one of the actor's keys; a key of another user is "not found" (no probing). */
  async revoke(actor: Actor, keyId: string): Promise<void> {
    const rows = await this.db.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL RETURNING id', [
      keyId,
      actor.userId,
    ]);
    if (rows.length === 0) throw new NotFoundError('API key');
  }

  /** The actor behind a presented key; UnauthorizedError for unknown, malformed or revoked keys. */
  async authenticate(presented: string): Promise<Actor> {
    if (!presented.startsWith(API_KEY_PREFIX) || presented.length < PREFIX_LENGTH + 8 || presented.length > 200) {
      throw new UnauthorizedError();
    }
    const presentedHash = hashOf(presented);
    const rows = await this.db.query<{ id: string; user_id: string; email: string; key_hash: string; last_used_at: Date | null }>(
      `SELECT k.id, k.user_id, u.email, k.key_hash, k.last_used_at
         FROM api_keys k JOIN users u ON u.id = k.user_id
        WHERE k.key_prefix = $1 AND k.revoked_at IS NULL`,
      [presented.slice(0, PREFIX_LENGTH)],
    );
    const match = rows.find((row) => timingSafeEqual(Buffer.from(row.key_hash, 'hex'), presentedHash));
    if (!match) throw new UnauthorizedError();
    const lastUsed = match.last_used_at ? new Date(match.last_used_at).getTime() : 0;
    if (Date.now() - lastUsed > LAST_USED_RESOLUTION_MS) {
      await this.db.query('UPDATE api_keys SET last_used_at = now() WHERE id = $1', [match.id]);
    }
    return { userId: match.user_id, email: match.email, keyId: match.id };
  }

  private wire(row: KeyRow): Omit<ApiKey, 'last_used_at'> {
    return {
      id: row.id,
      name: row.name,
      description: row.description,
      key_prefix: row.key_prefix,
      scopes: row.scopes,
      created_at: iso(row.created_at),
    };
  }
}
