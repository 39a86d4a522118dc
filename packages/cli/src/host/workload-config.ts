// What one large repository or one busy user may cost everyone else on a host, from the
// environment: issues listed per rule of a run, how many runs keep their full issue list, and
// (embedded runner) how much work one user or project may have queued. Every value is a whole
// number; 0 turns the bound off. The serve command and the worker read the same variables.

type Env = Readonly<Record<string, string | undefined>>;

export interface WorkloadConfig {
  /** CODEHEALTH_MAX_ISSUES_PER_RULE (default 1,000): issues listed per rule and repository of a run. */
  maxIssuesPerRule: number;
  /** CODEHEALTH_ISSUE_RETENTION_RUNS (default 10): completed assessments per project that keep their issue list. */
  issueRetentionRuns: number;
  /** CODEHEALTH_QUEUE_LIMIT_PER_USER / _PER_PROJECT (default 20 / 10): runs queued or running at once (embedded). */
  queueLimits: { perUser: number; perProject: number };
}

const VARIABLES = {
  maxIssuesPerRule: ['CODEHEALTH_MAX_ISSUES_PER_RULE', 1_000],
  issueRetentionRuns: ['CODEHEALTH_ISSUE_RETENTION_RUNS', 10],
  perUser: ['CODEHEALTH_QUEUE_LIMIT_PER_USER', 20],
  perProject: ['CODEHEALTH_QUEUE_LIMIT_PER_PROJECT', 10],
} as const;

const MAX = 1_000_000_000;

/** Reads the variables; each one that is not a whole number from 0 to 10^9 adds a problem (and its default is used). */
export function readWorkloadConfig(env: Env, problems: string[]): WorkloadConfig {
  const read = ([name, fallback]: readonly [string, number]): number => {
    const raw = env[name]?.trim();
    if (!raw) return fallback;
    // Digits only: `1e3`, `0x10`, `+5` and `10.5` are refused rather than read as something else.
    if (!/^\d{1,10}$/.test(raw) || Number(raw) > MAX) {
      problems.push(`${name} must be a whole number from 0 to ${MAX} (0: no limit)`);
      return fallback;
    }
    return Number(raw);
  };
  return {
    maxIssuesPerRule: read(VARIABLES.maxIssuesPerRule),
    issueRetentionRuns: read(VARIABLES.issueRetentionRuns),
    queueLimits: { perUser: read(VARIABLES.perUser), perProject: read(VARIABLES.perProject) },
  };
}
