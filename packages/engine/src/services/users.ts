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
