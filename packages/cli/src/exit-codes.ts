// Exit codes of the `codehealth` command, in the BSD sysexits tradition CI scripts understand.
export const EXIT = {
  ok: 0,
  /** The overall score or grade is below `--fail-under` (or the config's `thresholds.failUnder`), or there is no grade. */
  belowThreshold: 1,
  /** Bad usage or bad input: unknown flag, missing directory, invalid config, unloadable plugin. */
  usage: 2,
  /** EX_SOFTWARE: a bug of ours, not of the input. */
  internal: 70,
  /** 128 + SIGINT, as shells report an interrupted program. */
  interrupted: 130,
} as const;

/** A mistake of the user's that is reported as one line and exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
  readonly expose = true;
}
