// Errors of user-provided configuration: always shown to the user as one clear line.
export class ConfigError extends Error {
  override name = 'ConfigError';
  /** Safe to show to the user as is. */
  readonly expose = true;
}

interface IssueLike {
  path: PropertyKey[];
  message: string;
  issues?: IssueLike[];
}

/** One line per problem, `path: message`, looking inside invalid record keys for the real reason. */
export function formatSchemaIssues(issues: readonly IssueLike[], prefix = ''): string {
  return issues
    .map((issue) => {
      const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.') || '(root)';
      const message = issue.issues?.length ? issue.issues.map((i) => i.message).join(', ') : issue.message;
      return `${path}: ${message}`;
    })
    .join('; ');
}
