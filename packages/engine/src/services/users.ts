// Users: created by the admin CLI (`keys create --email`), by accepting invitations and by the
// identity provider's tokens. Emails are unique case-insensitively.
import { randomUUID } from 'node:crypto';
import type { Sql } from '../store/database.js';

export interface User {
  id: string;
  email: string;
  name: string;
}

export class UserService {
  constructor(private readonly db: Sql) {}

  async findByEmail(email: string): Promise<User | undefined> {
    const rows = await this.db.query<User & Record<string, unknown>>('SELECT id, email, name FROM users WHERE lower(email) = lower($1)', [email]);
    return rows[0];
  }

  /**
   * The user an identity-provider token names: found by subject, else by email (then the subject is
   * recorded), else created. The IdP is the authority on both.
   */
  async ensureFromIdentity(subject: string, email: string, name = ''): Promise<User> {
    const bySubject = await this.db.query<User>('SELECT id, email, name FROM users WHERE idp_subject = $1', [subject]);
    if (bySubject[0]) return bySubject[0];
    const user = await this.ensure(email, name);
    await this.db.query('UPDATE users SET idp_subject = $2 WHERE id = $1 AND idp_subject IS NULL', [user.id, subject]);
    return user;
  }

  /** The user with this email, created when missing (race-safe). */
  async ensure(email: string, name = ''): Promise<User> {
    await this.db.query(
      `INSERT INTO users (id, email, name) VALUES ($1, $2, $3) ON CONFLICT ((lower(email))) DO NOTHING`,
      [randomUUID(), email.trim(), name],
    );
    const user = await this.findByEmail(email.trim());
    if (!user) throw new Error(`user ${email} vanished right after it was created`);
    return user;
  }
}
