// Errors of the application services. Each maps to one HTTP status in the REST host (and to a
// clear one-line message in the CLI); their messages are written for the API's users.

export class ServiceError extends Error {
  /** The message is safe to show to callers. */
  readonly expose = true;
}

/** 400: the request is well-formed but not acceptable (e.g. an unsupported repository URL). */
export class InvalidInputError extends ServiceError {
  override readonly name = 'InvalidInputError';
}

/** 401: no valid credentials. */
export class UnauthorizedError extends ServiceError {
  override readonly name = 'UnauthorizedError';
  constructor() {
    super('unauthorized');
  }
}

/** 403: authenticated, but the user has no access to the project or may not do this. */
export class ForbiddenError extends ServiceError {
  override readonly name = 'ForbiddenError';
  constructor() {
    super('forbidden');
  }
}

/** 404 */
export class NotFoundError extends ServiceError {
  override readonly name = 'NotFoundError';
  constructor(what: string) {
    super(`${what} not found`);
  }
}

/** 409: the operation conflicts with the current state (duplicate key, last owner, ...). */
export class ConflictError extends ServiceError {
  override readonly name = 'ConflictError';
}

/** 503: a dependency (code host, workflow engine) is unavailable. */
export class UnavailableError extends ServiceError {
  override readonly name = 'UnavailableError';
}
