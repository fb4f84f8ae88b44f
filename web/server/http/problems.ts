import { type ProblemCode, ProblemError, type ProblemIssue, problem } from '@postwave/shared';

/**
 * A problem with one of the specific codes clients branch on (e.g. `credentials_invalid`); the
 * code must come from the SDK's closed map, which also fixes its status. `hint`: what the person
 * can do, where the code is a platform's (contract F).
 */
export function specificProblem(
  code: ProblemCode,
  detail: string,
  errors?: ProblemIssue[],
  hint?: string,
): ProblemError {
  return new ProblemError(problem(code, detail, { errors, ...(hint ? { hint } : {}) }));
}

export function validationFailed(detail: string, errors: ProblemIssue[]): ProblemError {
  return new ProblemError(problem('validation_failed', detail, { errors }));
}

export function invalidStatus(detail: string): ProblemError {
  return new ProblemError(problem('invalid_status', detail));
}
