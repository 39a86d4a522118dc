// Onboarding sessions and their progress events. Events are rows (late subscribers replay the
// history) and are also pushed to in-process subscribers at once; subscribers in another process
// than the worker (Temporal) poll the table.
import type { Database } from '../store/database.js';
import type { ProjectAccess } from './access.js';
import type { Actor } from './actor.js';
import { NotFoundError } from './errors.js';
import { iso } from './time.js';

export type OnboardingEventType = 'step_started' | 'step_finished' | 'step_failed' | 'progress' | 'completed' | 'failed';
export const FINAL_ONBOARDING_EVENTS: readonly OnboardingEventType[] = ['completed', 'failed'];

export interface OnboardingEventRecord {
  seq: number;
  type: OnboardingEventType;
  data: Record<string, unknown>;
  created_at: string;
}

export interface OnboardingSession {
  id: string;
  project_id: string;
  repository_ids: string[];
  status: 'pending' | 'running' | 'completed' | 'failed';
  error: string | null;
  created_at: string;
  finished_at: string | null;
}

type Listener = (event: OnboardingEventRecord) => void;

export class OnboardingService {
  private readonly listeners = new Map<string, Set<Listener>>();

  constructor(
    private readonly db: Database,
    private readonly access: ProjectAccess,
  ) {}

  /** The session, when the actor may see its project (403/404 otherwise). */
  async get(actor: Actor, sessionId: string): Promise<OnboardingSession> {
    const session = await this.find(sessionId);
    if (!session) throw new NotFoundError('onboarding session');
    await this.access.require(actor, session.project_id);
    return session;
  }

  async find(sessionId: string): Promise<OnboardingSession | undefined> {
    const rows = await this.db.query<OnboardingSession & { created_at: Date; finished_at: Date | null }>(
      'SELECT id, project_id, repository_ids, status, error, created_at, finished_at FROM onboarding_sessions WHERE id = $1',
      [sessionId],
    );
    const row = rows[0];
    return row && { ...row, created_at: iso(row.created_at), finished_at: iso(row.finished_at) };
  }

  async events(sessionId: string, afterSeq = 0): Promise<OnboardingEventRecord[]> {
    const rows = await this.db.query<OnboardingEventRecord & { created_at: Date }>(
      'SELECT seq, type, data, created_at FROM onboarding_events WHERE session_id = $1 AND seq > $2 ORDER BY seq',
      [sessionId, afterSeq],
    );
    return rows.map((row) => ({ ...row, created_at: iso(row.created_at) }));
  }

  /** Appends an event (numbered 1, 2, ... per session) and tells in-process subscribers. */
  async record(sessionId: string, type: OnboardingEventType, data: Record<string, unknown>): Promise<OnboardingEventRecord> {
    const event = await this.db.transaction(async (tx) => {
      await tx.query("UPDATE onboarding_sessions SET status = 'running' WHERE id = $1 AND status = 'pending'", [sessionId]);
      const rows = await tx.query<OnboardingEventRecord & { created_at: Date }>(
        `INSERT INTO onboarding_events (session_id, seq, type, data)
         SELECT $1, COALESCE(max(seq), 0) + 1, $2, $3 FROM onboarding_events WHERE session_id = $1
         RETURNING seq, type, data, created_at`,
        [sessionId, type, data],
      );
      return { ...rows[0]!, created_at: iso(rows[0]!.created_at) };
    });
    for (const listener of this.listeners.get(sessionId) ?? []) listener(event);
    return event;
  }

  async finish(sessionId: string, status: 'completed' | 'failed', error?: string): Promise<void> {
    await this.db.query('UPDATE onboarding_sessions SET status = $2, error = $3, finished_at = now() WHERE id = $1', [sessionId, status, error ?? null]);
  }

  subscribe(sessionId: string, listener: Listener): () => void {
    const set = this.listeners.get(sessionId) ?? new Set<Listener>();
    set.add(listener);
    this.listeners.set(sessionId, set);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(sessionId);
    };
  }
}
