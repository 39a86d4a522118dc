// Errors of user-provided configuration: always shown to the user as one clear line.
export class ConfigError extends Error {
  override name = 'ConfigError';
  /** Safe to show to the user as is. */
  readonly expose = true;
}
