import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { ProblemError, parseBody, schemaProblem } from '../../src/problems.ts';
import {
  parseOffsetDateTime,
  parsePostRequest,
  parseValidationRequest,
} from '../../src/publish/parse-request.ts';

/** The problem `parsePostRequest` throws for `body`, or undefined when it parses. */
function refusal(body: unknown): ProblemError | undefined {
  try {
    parsePostRequest(body);
    return undefined;
  } catch (error) {
    if (error instanceof ProblemError) return error;
    throw error;
  }
}

const valid = { message: 'Hello', accountIds: ['a'], postingMode: 'now' };
const image = { key: 'img.png', url: 'https://cdn.example/img.png', contentType: 'image/png', size: 3 };

describe('post request bodies (contract B: 400 for the wrong shape, 422 for a value not allowed)', () => {
  it('ignores unknown fields at every level', () => {
    const parsed = parsePostRequest({
      ...valid,
      accountIds: ['a', 'b'],
      client: 'my-script',
      overrides: { a: { message: 'Short', note: 'kept for me' } },
      thread: [{ message: 'Second', mood: 'happy' }],
    });
    assert.equal(parsed.message, 'Hello');
    assert.deepEqual(parsed.overrides?.a, { message: 'Short' });
    assert.deepEqual(parsed.thread, [{ message: 'Second', media: [] }]);
    assert.equal('client' in parsed, false);
  });

  it('answers 400 invalid_request for wrong types and missing fields', () => {
    for (const body of [
      { ...valid, message: 42 },
      { ...valid, accountIds: 'a' },
      { accountIds: ['a'], postingMode: 'now' },
      { ...valid, media: 'img.png' },
      { ...valid, thread: [{ message: 7 }] },
      [valid],
    ]) {
      const problem = refusal(body);
      assert.equal(problem?.status, 400, JSON.stringify(body));
      assert.equal(problem.problem.code, 'invalid_request');
    }
  });

  it('answers 422 validation_failed naming the field for well-typed values out of bounds', () => {
    const cases: [unknown, string][] = [
      [{ ...valid, accountIds: [] }, 'accountIds'],
      [{ ...valid, message: 'x'.repeat(100_001) }, 'message'],
      [{ ...valid, thread: Array.from({ length: 26 }, () => ({ message: 'p' })) }, 'thread'],
      // A media list of the right shape but too long: the union names the list's own problem.
      [{ ...valid, media: Array.from({ length: 51 }, () => image) }, 'media'],
      [{ ...valid, postingMode: 'soon' }, 'postingMode'],
      [{ ...valid, scheduledAt: 'tomorrow' }, 'scheduledAt'],
    ];
    for (const [body, path] of cases) {
      const problem = refusal(body);
      assert.equal(problem?.status, 422, path);
      assert.equal(problem.problem.code, 'validation_failed');
      assert.equal(problem.problem.errors?.[0]?.path, path);
      assert.doesNotMatch(problem.problem.errors?.[0]?.message ?? '', /^Invalid input$/);
    }
  });

  it("says what to do about the accounts, in the composer's words, not zod's", () => {
    const none = refusal({ ...valid, accountIds: [] });
    assert.deepEqual(none?.problem.errors, [
      { path: 'accountIds', code: 'too_small', message: 'Choose at least one account' },
    ]);
    const many = refusal({ ...valid, accountIds: Array.from({ length: 101 }, (_, i) => `a${i}`) });
    assert.equal(many?.problem.errors?.[0]?.message, 'Choose at most 100 accounts');
    // Validation answers the same sentence as `valid: false`.
    const checked = parseValidationRequest({ message: 'Hello', accountIds: [] });
    assert.equal(checked.invalid?.errors?.[0]?.message, 'Choose at least one account');
  });
});

describe('parseOffsetDateTime', () => {
  it('refuses dates the calendar does not have instead of rolling them over', () => {
    for (const value of [
      '2030-02-30T00:00:00Z',
      '2031-04-31T09:00:00Z',
      '2030-01-01T24:00:00Z',
      '2027-02-29T12:00:00Z',
      '2100-02-29T12:00:00Z',
      '2030-13-01T00:00:00Z',
      '2030-00-10T00:00:00Z',
      '2030-01-00T00:00:00Z',
      '2030-01-01T10:60:00Z',
      '2030-01-01T10:00:60Z',
      '2030-01-01T10:00:00+24:00',
      '2030-01-01T10:00:00+01:60',
    ]) {
      assert.equal(parseOffsetDateTime(value), undefined, value);
    }
  });

  it('accepts leap days of leap years and the last day of every month', () => {
    assert.equal(parseOffsetDateTime('2028-02-29T00:00:00Z')?.toISOString(), '2028-02-29T00:00:00.000Z');
    assert.equal(parseOffsetDateTime('2000-02-29T23:59:59Z')?.toISOString(), '2000-02-29T23:59:59.000Z');
    assert.equal(parseOffsetDateTime('2031-04-30T09:30+02:00')?.toISOString(), '2031-04-30T07:30:00.000Z');
    assert.equal(
      parseOffsetDateTime('2030-12-31T23:59:59.5-01:00')?.toISOString(),
      '2031-01-01T00:59:59.500Z',
    );
  });

  it('makes a post with an impossible scheduledAt 422 invalid_datetime', () => {
    const problem = refusal({ ...valid, postingMode: 'schedule', scheduledAt: '2030-02-30T00:00:00Z' });
    assert.equal(problem?.status, 422);
    assert.equal(problem.problem.code, 'validation_failed');
    assert.equal(problem.problem.errors?.[0]?.code, 'invalid_datetime');
  });
});

describe('schemaProblem', () => {
  it('is 400 when any issue is a wrong type, even beside value issues', () => {
    const schema = z.object({ name: z.string().min(1), size: z.number() });
    const error = schema.safeParse({ name: '', size: 'big' }).error;
    assert.ok(error);
    assert.equal(schemaProblem(error).status, 400);
  });

  it('tells a value of another type than every allowed one (400) from an unknown value (422)', () => {
    const move = z.object({ move: z.enum(['up', 'down']), days: z.literal(30).optional() });
    const statusOf = (value: unknown) => {
      try {
        parseBody(move, value);
        return 200;
      } catch (error) {
        return (error as ProblemError).status;
      }
    };
    assert.equal(statusOf({ move: 1 }), 400);
    assert.equal(statusOf({ move: 'up', days: '30' }), 400);
    assert.equal(statusOf({ move: 'sideways' }), 422);
    assert.equal(statusOf({ move: 'up', days: 31 }), 422);
    assert.equal(statusOf({ move: 'down', days: 30, extra: true }), 200);
  });

  it('is 422 for a value no branch of a discriminated union takes, and for failed rules', () => {
    const kind = z.discriminatedUnion('type', [
      z.object({ type: z.literal('a') }),
      z.object({ type: z.literal('b') }),
    ]);
    const unknownKind = kind.safeParse({ type: 'c' }).error;
    assert.ok(unknownKind);
    assert.equal(schemaProblem(unknownKind).status, 422);
    const rule = z
      .object({ from: z.number(), to: z.number() })
      .refine((range) => range.from <= range.to, { message: 'from after to', path: ['to'] });
    const backwards = rule.safeParse({ from: 2, to: 1 }).error;
    assert.ok(backwards);
    const problem = schemaProblem(backwards);
    assert.equal(problem.status, 422);
    assert.deepEqual(problem.problem.errors, [{ path: 'to', code: 'custom', message: 'from after to' }]);
  });
});
