// The one place where failures become responses: every error is `{ "error": "<message>" }` with
// the spec's status codes; internal errors never leak their message or stack.
import { HTTPError } from 'h3';
import { z } from 'zod';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const SERVICE_STATUS: Record<string, number> = {
  InvalidInputError: 400,
  UnauthorizedError: 401,
  ForbiddenError: 403,
  NotFoundError: 404,
  ConflictError: 409,
  UnavailableError: 503,
};

export function formatZodIssues(where: string, error: z.ZodError): string {
  const parts = error.issues.slice(0, 5).map((issue) => {
    const path = issue.path.length > 0 ? issue.path.join('.') : '';
    return path ? `${path}: ${issue.message}` : issue.message;
  });
  const more = error.issues.length > 5 ? ` (and ${error.issues.length - 5} more)` : '';
  return `invalid ${where}: ${parts.join('; ')}${more}`;
}

export interface ErrorResponse {
  status: number;
  message: string;
  headers: Record<string, string>;
  /** True when the failure is ours (logged with its stack, reported as 500). */
  internal: boolean;
}

export function toErrorResponse(error: unknown): ErrorResponse {
  if (error instanceof ApiError) return { status: error.status, message: error.message, headers: error.headers, internal: false };
  if (error instanceof Error && (error as { expose?: unknown }).expose === true && error.name in SERVICE_STATUS) {
    return { status: SERVICE_STATUS[error.name]!, message: error.message, headers: {}, internal: false };
  }
  if (error instanceof HTTPError && error.status < 500) {
    return { status: error.status, message: error.message || error.statusText || 'bad request', headers: {}, internal: false };
  }
  return { status: 500, message: 'internal server error', headers: {}, internal: true };
}

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  if (status === 204) return new Response(null, { status, headers });
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}

export function errorResponse(error: ErrorResponse): Response {
  return jsonResponse(error.status, { error: error.message }, error.headers);
}
