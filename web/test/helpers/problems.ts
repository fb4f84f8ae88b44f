import assert from 'node:assert/strict';

interface ProblemAnswer {
  status: number;
  body: { code: string; errors?: { path?: string; code: string }[] };
}

/**
 * Contract B's split of a refused body, asserted with the field it names: 400 `invalid_request`
 * for a field missing or of the wrong type, 422 `validation_failed` for a well-typed value that
 * breaks a rule (with the issue's `code`, when given).
 */
export function assertRefused(res: ProblemAnswer, status: 400 | 422, path: string, code?: string): void {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body.code, status === 400 ? 'invalid_request' : 'validation_failed');
  assert.ok(
    res.body.errors?.some((e) => e.path === path && (!code || e.code === code)),
    `an issue at ${path}${code ? ` (${code})` : ''}: ${JSON.stringify(res.body.errors)}`,
  );
}

export const assertWrongType = (res: ProblemAnswer, path: string) => assertRefused(res, 400, path);
