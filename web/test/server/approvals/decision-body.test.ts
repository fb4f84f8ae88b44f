import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseApprove, requiredComment } from '#server/approvals/schema.ts';

/**
 * The approve and reject bodies (contract B): a field of the wrong type, or a body that is not an
 * object, is 400 `invalid_request`; a well-typed body whose values are not enough (a missing or
 * blank rejection comment, an over-long comment, a malformed time) is 422 `validation_failed`.
 */

type Refusal = { problem?: { status: number; code: string; errors?: { path?: string; code: string }[] } };

const refusedWith = (status: 400 | 422, path?: string, code?: string) => (error: Refusal) => {
  const problem = error.problem;
  assert.equal(problem?.status, status, JSON.stringify(problem));
  assert.equal(problem?.code, status === 400 ? 'invalid_request' : 'validation_failed');
  if (path) {
    assert.ok(
      problem?.errors?.some((e) => e.path === path && (!code || e.code === code)),
      `an issue at ${path}: ${JSON.stringify(problem?.errors)}`,
    );
  }
  return true;
};

const refuses = (parse: () => unknown, check: (error: Refusal) => boolean) =>
  assert.throws(parse, (error: unknown) => check(error as Refusal));

describe('approve body', () => {
  test('empty or well formed: the comment and the new time', () => {
    assert.deepEqual(parseApprove(undefined), { comment: undefined, scheduledAt: undefined });
    const parsed = parseApprove({ comment: ' fine ', scheduledAt: '2030-01-02T09:30:00+01:00' });
    assert.equal(parsed.comment, 'fine');
    assert.equal(parsed.scheduledAt?.toISOString(), '2030-01-02T08:30:00.000Z');
  });

  test('wrong types are 400 invalid_request naming the field', () => {
    refuses(() => parseApprove({ comment: 5 }), refusedWith(400, 'comment', 'invalid_type'));
    refuses(
      () => parseApprove({ scheduledAt: 1_900_000_000 }),
      refusedWith(400, 'scheduledAt', 'invalid_type'),
    );
    refuses(() => parseApprove({ comment: null }), refusedWith(400, 'comment'));
    refuses(() => parseApprove([]), refusedWith(400));
    refuses(() => parseApprove('approve'), refusedWith(400));
  });

  test('well-typed values that break a rule are 422', () => {
    refuses(() => parseApprove({ comment: 'x'.repeat(5001) }), refusedWith(422, 'comment'));
    refuses(() => parseApprove({ scheduledAt: 'next tuesday' }), refusedWith(422, 'scheduledAt'));
  });
});

describe('reject body', () => {
  test('a comment, trimmed', () => {
    assert.equal(requiredComment({ comment: '  shorter please ' }), 'shorter please');
  });

  test('wrong types are 400 invalid_request naming the field', () => {
    refuses(() => requiredComment({ comment: 5 }), refusedWith(400, 'comment', 'invalid_type'));
    refuses(() => requiredComment({ comment: ['no'] }), refusedWith(400, 'comment', 'invalid_type'));
    refuses(() => requiredComment([]), refusedWith(400));
  });

  test('a missing, blank or too long comment is 422 naming comment', () => {
    refuses(() => requiredComment(undefined), refusedWith(422, 'comment', 'required'));
    refuses(() => requiredComment({}), refusedWith(422, 'comment', 'required'));
    refuses(() => requiredComment({ comment: '   ' }), refusedWith(422, 'comment', 'required'));
    refuses(() => requiredComment({ comment: 'x'.repeat(5001) }), refusedWith(422, 'comment', 'too_long'));
  });
});
