import type { ZodError } from 'zod';
import type { Problem, ProblemIssue } from './schemas/problem.ts';
import type { TargetResult } from './schemas/results.ts';

/**
 * The closed set of problem codes and the HTTP status each one answers with. The first code listed
 * for a status is its generic one; the others are specific codes clients branch on.
 */
export const problemStatus = {
  invalid_request: 400,
  unauthorized: 401,
  token_expired: 401,
  forbidden: 403,
  invitation_email_mismatch: 403,
  self_approval: 403,
  not_found: 404,
  invalid_status: 409,
  email_taken: 409,
  idempotency_in_progress: 409,
  last_owner: 409,
  media_in_use: 409,
  scheduled_time_passed: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  validation_failed: 422,
  idempotency_key_reused: 422,
  credentials_invalid: 422,
  target_unreachable: 422,
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
  token_expired: 'Token expired',
  forbidden: 'Forbidden',
  invitation_email_mismatch: 'Invitation is for another e-mail address',
  self_approval: 'Authors do not approve their own posts',
  not_found: 'Not found',
  invalid_status: 'Not allowed in this status',
  email_taken: 'Email already registered',
  idempotency_in_progress: 'Request in progress',
  last_owner: 'Last owner',
  media_in_use: 'Media in use',
  scheduled_time_passed: 'Requested time has passed',
  payload_too_large: 'Payload too large',
  unsupported_media_type: 'Unsupported media type',
  validation_failed: 'Validation failed',
  idempotency_key_reused: 'Idempotency key reused',
  credentials_invalid: 'Credentials rejected',
  target_unreachable: 'Target unreachable',
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
  extra: { errors?: ProblemIssue[] | undefined; results?: TargetResult[]; requiredRole?: string } = {},
): Problem {
  const { errors, ...rest } = extra;
  return {
    type: `https://postwave.dev/problems/${code.replaceAll('_', '-')}`,
    title: titles[code],
    status: problemStatus[code],
    detail,
    code,
    ...(errors ? { errors } : {}),
    ...rest,
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
