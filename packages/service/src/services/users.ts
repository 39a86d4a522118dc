// Users: created by the admin CLI (`keys create --email`), by accepting invitations and by the
// identity provider's tokens. Emails are unique case-insensitively. An IdP identity is the pair
// (issuer, subject); an email links an identity to a user only when the IdP has verified it.
import { randomUUID } from 'node:crypto';
import { sqlState, UNIQUE_VIOLATION, type Sql } from '../store/database.js';

export interface User {
  id: string;
  email: string;
  name: string;
}

/** What a verified identity-provider token says about its holder. */
export interface IdpIdentity {
  /** The token's `iss`. */
  issuer: string;
  /** The token's `sub`: stable within its issuer, unlike the email. */
  subject: string;
  email: string;
  /** The token's `email_verified`: only a verified email links to an existing user or creates one. */
  emailVerified: boolean;
  name?: string;
}

const COLUMNS = 'id, email, name';

export class UserService {
  constructor(private readonly db: Sql) {}

  async findByEmail(email: string): Promise<User | undefined> {
    const rows = await this.db.query<User & Record<string, unknown>>(`SELECT ${COLUMNS} FROM users WHERE lower(email) = lower($1)`, [email]);
    return rows[0];
  }

  /**
   * The user an identity-provider token names, or undefined when it names none that it may have.
   * Found by (issuer, subject) whatever the email says now; else the user recorded with this
   * subject before issuers were stored (claimed for this issuer); else, for a verified email only,
   * the user with that email (linked) or a new one. An unverified email never links nor creates: it
   * would let anyone who can register that address at the IdP take over the user, or claim the
   * address (and its invitations) first. A verified email already linked to another identity of
   * the same issuer is refused too; one linked under a previously configured issuer moves here.
   */
  async ensureFromIdentity(identity: IdpIdentity): Promise<User | undefined> {
    const known = await this.findByIdentity(identity);
    if (known) return known;
    const [legacy] = await this.db.query<User>(`UPDATE users SET idp_issuer = $1 WHERE idp_subject = $2 AND idp_issuer IS NULL RETURNING ${COLUMNS}`, [
      identity.issuer,
      identity.subject,
    ]);
    if (legacy) return legacy;
    // (A concurrent first request may have just claimed or linked this identity.)
    if (!identity.emailVerified) return this.findByIdentity(identity);
    const user = await this.ensure(identity.email, identity.name ?? '');
    try {
      const [linked] = await this.db.query<User>(
        `UPDATE users SET idp_issuer = $2, idp_subject = $3
          WHERE id = $1 AND (idp_subject IS NULL OR (idp_issuer IS NOT NULL AND idp_issuer <> $2)) RETURNING ${COLUMNS}`,
        [user.id, identity.issuer, identity.subject],
      );
      if (linked) return linked;
    } catch (error) {
      // The same identity was linked to another user at this moment (two first requests at once).
      if (sqlState(error) !== UNIQUE_VIOLATION) throw error;
    }
    // Not linked: a concurrent first request of this identity linked it, or the email's user
    // belongs to another identity of this issuer (then refused).
    return this.findByIdentity(identity);
  }

  /** The user with this email, created when missing (race-safe). */
  async ensure(email: string, name = ''): Promise<User> {
    await this.db.query(`INSERT INTO users (id, email, name) VALUES ($1, $2, $3) ON CONFLICT ((lower(email))) DO NOTHING`, [randomUUID(), email.trim(), name]);
    const user = await this.findByEmail(email.trim());
    if (!user) throw new Error(`user ${email} vanished right after it was created`);
    return user;
  }

  private async findByIdentity(identity: IdpIdentity): Promise<User | undefined> {
    const rows = await this.db.query<User>(`SELECT ${COLUMNS} FROM users WHERE idp_issuer = $1 AND idp_subject = $2`, [identity.issuer, identity.subject]);
    return rows[0];
  }
}
