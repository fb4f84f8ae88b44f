import type { ZodError, z } from 'zod';
import { errorHint } from './error-hints.ts';
import type { Problem, ProblemIssue } from './schemas/problem.ts';
import type { TargetResult } from './schemas/results.ts';

type ZodIssue = z.core.$ZodIssue;

/**
 * The closed set of problem codes and the HTTP status each one answers with. The first code listed
 * for a status is its generic one; the others are specific codes clients branch on.
 */
export const problemStatus = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  invitation_email_mismatch: 403,
  email_unverified: 403,
  self_approval: 403,
  not_found: 404,
  method_not_allowed: 405,
  invalid_status: 409,
  email_taken: 409,
  idempotency_in_progress: 409,
  last_owner: 409,
  media_in_use: 409,
  scheduled_time_passed: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  range_not_satisfiable: 416,
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
  forbidden: 'Forbidden',
  invitation_email_mismatch: 'Invitation is for another e-mail address',
  email_unverified: 'E-mail address not verified',
  self_approval: 'Authors do not approve their own posts',
  not_found: 'Not found',
  method_not_allowed: 'Method not allowed',
  invalid_status: 'Not allowed in this status',
  email_taken: 'Email already registered',
  idempotency_in_progress: 'Request in progress',
  last_owner: 'Last owner',
  media_in_use: 'Media in use',
  scheduled_time_passed: 'Requested time has passed',
  payload_too_large: 'Payload too large',
  unsupported_media_type: 'Unsupported media type',
  range_not_satisfiable: 'Range not satisfiable',
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

/**
 * Problem codes that only a platform's refusal answers with: such a problem always carries a
 * `hint` (contract F), the code's own when the caller gave none.
 */
const platformOnlyCodes: ReadonlySet<ProblemCode> = new Set(['credentials_invalid', 'target_unreachable']);

/** An RFC 9457 problem body. `type` is a stable URI per code so clients can link docs. */
export function problem(
  code: ProblemCode,
  detail: string,
  extra: {
    errors?: ProblemIssue[] | undefined;
    results?: TargetResult[];
    requiredRole?: string;
    hint?: string;
  } = {},
): Problem {
  const { errors, hint: given, ...rest } = extra;
  const hint = given ?? (platformOnlyCodes.has(code) ? errorHint(code) : undefined);
  return {
    type: `https://postwave.dev/problems/${code.replaceAll('_', '-')}`,
    title: titles[code],
    status: problemStatus[code],
    detail,
    code,
    ...(hint ? { hint } : {}),
    ...(errors ? { errors } : {}),
    ...rest,
  };
}

/**
 * A platform's refusal or failure as a problem (connecting an account, loading its choices).
 * Contract F: every platform error carries a `hint`, so it goes on the problem (what the app and
 * MCP show) and on its one issue (for clients that read `errors[]`). The issue's code is the
 * problem's unless `issueCode` names the platform error's own.
 */
export function platformProblem(
  code: ProblemCode,
  detail: string,
  refusal: { hint: string; message?: string; issueCode?: string },
): Problem {
  const issue = { code: refusal.issueCode ?? code, message: refusal.message ?? detail, hint: refusal.hint };
  return problem(code, detail, { hint: refusal.hint, errors: [issue] });
}

/**
 * The 405 for `method` on a path that answers only `allow` (sent with the `Allow` header), worded
 * alike by the Scheduler and the self-hosted server.
 */
export function methodNotAllowedProblem(method: string, pathname: string, allow: readonly string[]): Problem {
  return problem(
    'method_not_allowed',
    `${method} is not allowed on ${pathname}; allowed: ${allow.join(', ')}`,
  );
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
  return error.issues
    .flatMap((issue) => reportedIssues(issue, []))
    .map((issue) => ({
      ...(issue.path.length ? { path: issue.path.map(String).join('.') } : {}),
      code: issue.code,
      message: issue.message,
    }));
}

/**
 * The problem for a request body its schema refused (contract B): 400 `invalid_request` when the
 * JSON has the wrong shape (a field of the wrong type or missing), 422 `validation_failed` when
 * every field has the right type and some value is not allowed (too long, out of range, not one
 * of the allowed values, a malformed e-mail or URL, a rule across fields).
 */
export function schemaProblem(error: ZodError): ProblemError {
  const shapeWrong = error.issues.some(isShapeIssue);
  return new ProblemError(
    problem(
      shapeWrong ? 'invalid_request' : 'validation_failed',
      shapeWrong ? 'The request body is not valid' : 'Some fields are not valid',
      { errors: zodIssues(error) },
    ),
  );
}

/**
 * `schema`'s parse of a request body, or the problem `schemaProblem` names. The issues carry
 * their input (never sent back), so a number given for an enum of strings counts as a wrong type.
 */
export function parseBody<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const parsed = schema.safeParse(value, { reportInput: true });
  if (!parsed.success) throw schemaProblem(parsed.error);
  return parsed.data;
}

/**
 * A wrong type: a field of another type or missing, a value of another type than every allowed
 * one (`move: 1` where `"up" | "down"` are), or a union none of whose branches has the right type.
 * A discriminated union with no branch for the given value reports no branches: that value is well
 * typed, so it is not one.
 */
function isShapeIssue(issue: ZodIssue): boolean {
  if (issue.code === 'invalid_type') return true;
  if (issue.code === 'invalid_value' && 'input' in issue && issue.values.length > 0)
    return issue.values.every((allowed) => typeof allowed !== typeof issue.input);
  if (issue.code === 'invalid_union')
    return issue.errors.length > 0 && issue.errors.every((branch) => branch.some(isShapeIssue));
  return false;
}

/**
 * What to tell the caller about an issue: a union names the problems of the branches whose shape
 * matched (e.g. "at most 50 items" for a media list), not just "Invalid input".
 */
function reportedIssues(issue: ZodIssue, prefix: PropertyKey[]): ZodIssue[] {
  const path = [...prefix, ...issue.path];
  if (issue.code === 'invalid_union' && !isShapeIssue(issue)) {
    const matching = issue.errors.filter((branch) => !branch.some(isShapeIssue));
    if (matching.length > 0) return matching.flat().flatMap((inner) => reportedIssues(inner, path));
  }
  return [{ ...issue, path }];
}
