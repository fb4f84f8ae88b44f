import type { ZodError } from 'zod';
import type { Problem, ProblemIssue } from './schemas/problem.ts';
import type { TargetResult } from './schemas/results.ts';

/** Problem codes and the HTTP status each one answers with. */
export const problemStatus = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  invalid_status: 409,
  email_taken: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  validation_failed: 422,
  rate_limited: 429,
  internal: 500,
  not_supported: 501,
  publish_failed: 502,
  unavailable: 503,
} as const;
export type ProblemCode = keyof typeof problemStatus;

const titles: Record<ProblemCode, string> = {
  invalid_request: 'Invalid request',
  unauthorized: 'Unauthorized',
  forbidden: 'Forbidden',
  not_found: 'Not found',
  invalid_status: 'Not allowed in this status',
  email_taken: 'Email already registered',
  payload_too_large: 'Payload too large',
  unsupported_media_type: 'Unsupported media type',
  validation_failed: 'Validation failed',
  rate_limited: 'Too many requests',
  internal: 'Internal error',
  not_supported: 'Not supported',
  publish_failed: 'Publishing failed',
  unavailable: 'Service unavailable',
};

export const problemContentType = 'application/problem+json';

/** An RFC 9457 problem body. `type` is a stable URI per code so clients can link docs. */
export function problem(
  code: ProblemCode,
  detail: string,
  extra: { errors?: ProblemIssue[]; results?: TargetResult[] } = {},
): Problem {
  return {
    type: `https://postwave.dev/problems/${code.replaceAll('_', '-')}`,
    title: titles[code],
    status: problemStatus[code],
    detail,
    code,
    ...extra,
  };
}

/** An error that adapters turn into a problem response. Thrown by shared request helpers. */
export class ProblemError extends Error {
  readonly problem: Problem;
  readonly headers: Record<string, string>;
  constructor(problemBody: Problem, headers: Record<string, string> = {}) {
    super(problemBody.detail);
    this.name = 'ProblemError';
    this.problem = problemBody;
    this.headers = headers;
  }
  get status(): number {
    return this.problem.status;
  }
}

export function zodIssues(error: ZodError): ProblemIssue[] {
  return error.issues.map((issue) => ({
    ...(issue.path.length ? { path: issue.path.map(String).join('.') } : {}),
    code: issue.code,
    message: issue.message,
  }));
}

export function invalidRequest(error: ZodError, detail = 'The request body is not valid'): ProblemError {
  return new ProblemError(problem('invalid_request', detail, { errors: zodIssues(error) }));
}
