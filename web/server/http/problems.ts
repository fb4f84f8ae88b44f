import { type Problem, ProblemError, type ProblemIssue, problem } from '@postwave/shared';

/**
 * A 422 whose `code` names the specific reason (e.g. `credentials_invalid`), for errors the
 * contract names individually rather than as a generic `validation_failed`.
 */
export function specificProblem(
  status: number,
  code: string,
  detail: string,
  errors?: ProblemIssue[],
): ProblemError {
  const base = status === 422 ? problem('validation_failed', detail) : problem('invalid_status', detail);
  const body: Problem = {
    ...base,
    status,
    code,
    type: `https://postwave.dev/problems/${code.replaceAll('_', '-')}`,
    ...(errors ? { errors } : {}),
  };
  return new ProblemError(body);
}

export function validationFailed(detail: string, errors: ProblemIssue[]): ProblemError {
  return new ProblemError(problem('validation_failed', detail, { errors }));
}

export function invalidStatus(detail: string): ProblemError {
  return new ProblemError(problem('invalid_status', detail));
}
