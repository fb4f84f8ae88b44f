import { ProblemError, parseBody, problem, problemStatus, schemaProblem } from '../problems.ts';
import {
  type NormalizedPost,
  normalizeMedia,
  normalizeOverrides,
  normalizeThread,
  PostingMode,
  PostRequest,
  postingModes,
  ValidationRequest,
} from '../schemas/post.ts';
import type { ValidationIssue, ValidationResponse } from '../schemas/results.ts';
import { overrideKeysProblem } from './composer-checks.ts';

/** The issue of a `postingMode` that is none of the modes (422 on posting, `valid: false` on validation). */
const unknownPostingMode: ValidationIssue = {
  path: 'postingMode',
  code: 'invalid_posting_mode',
  message: `Must be one of ${postingModes.join(', ')}`,
};

/**
 * Parses a post request body. Malformed JSON shapes are 400; a well-formed request with an unknown
 * `postingMode` or a bad `scheduledAt` is 422: the request is well formed, a value is not.
 */
export function parsePostRequest(body: unknown): NormalizedPost {
  const { message, accountIds, postingMode, media, scheduledAt, accountOptions, overrides, thread } =
    parseBody(PostRequest, body);
  const mode = PostingMode.safeParse(postingMode);
  if (!mode.success) {
    throw new ProblemError(
      problem('validation_failed', `Unknown postingMode "${postingMode}"`, {
        errors: [unknownPostingMode],
      }),
    );
  }
  let when: Date | undefined;
  if (scheduledAt !== undefined) {
    when = parseOffsetDateTime(scheduledAt);
    if (!when) {
      throw new ProblemError(
        problem('validation_failed', 'scheduledAt must be an ISO 8601 date-time with an offset', {
          errors: [
            { path: 'scheduledAt', code: 'invalid_datetime', message: 'Use e.g. 2026-12-01T09:30:00+01:00' },
          ],
        }),
      );
    }
  }
  assertOverrideKeys(accountIds, overrides);
  return {
    message,
    accountIds: [...new Set(accountIds)],
    postingMode: mode.data,
    media: normalizeMedia(media),
    ...(when ? { scheduledAt: when } : {}),
    accountOptions: accountOptions ?? {},
    overrides: normalizeOverrides(overrides),
    thread: normalizeThread(thread),
  };
}

/** 422 when `overrides` names an account the post does not go to. */
export function assertOverrideKeys(
  accountIds: readonly string[],
  overrides: Readonly<Record<string, unknown>> | undefined,
): void {
  const invalid = overrideKeysProblem(accountIds, overrides);
  if (invalid) throw new ProblemError(invalid);
}

const offsetDateTime =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/;

/**
 * An ISO 8601 date-time with an offset, or undefined. Every field is checked against the calendar
 * first: `new Date` rolls impossible dates over (February 30th becomes March 2nd, 24:00 the next
 * day), which would schedule a post for a day nobody asked for.
 */
export function parseOffsetDateTime(value: string): Date | undefined {
  const match = offsetDateTime.exec(value);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second = 0, offsetHours = 0, offsetMinutes = 0] = match
    .slice(1)
    .map((field) => (field === undefined ? undefined : Number(field)));
  if (month! < 1 || month! > 12 || day! < 1 || day! > daysInMonth(year!, month!)) return undefined;
  if (hour! > 23 || minute! > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** Days in `month` (1–12) of `year` in the proleptic Gregorian calendar ISO 8601 uses. */
function daysInMonth(year: number, month: number): number {
  if (month !== 2) return [4, 6, 9, 11].includes(month) ? 30 : 31;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return leap ? 29 : 28;
}

/** A validation request as the posting service takes it. */
export type NormalizedValidationRequest = Omit<NormalizedPost, 'postingMode' | 'scheduledAt'>;

/**
 * A validation request body (contract B): a body of the wrong shape is still 400 (thrown), but
 * one whose values break a rule (no accounts, a text over 100,000 characters, 51 media, a
 * malformed media key, an override for an account the post does not go to, an unknown
 * `postingMode`) is not refused: its
 * answer is `invalid`, `valid: false` with those issues in `errors` and no per-account results,
 * since accounts are only checked against a request that keeps the rules.
 */
export function parseValidationRequest(
  body: unknown,
): { post: NormalizedValidationRequest; invalid?: undefined } | { invalid: ValidationResponse } {
  const parsed = ValidationRequest.safeParse(body, { reportInput: true });
  if (!parsed.success) {
    const refusal = schemaProblem(parsed.error);
    if (refusal.status !== problemStatus.validation_failed) throw refusal;
    return { invalid: invalidValidation(refusal.problem.errors ?? []) };
  }
  const request = parsed.data;
  // "Unknown postingMode values are 422" (contract B): validating such a post answers it invalid.
  if (request.postingMode !== undefined && !PostingMode.safeParse(request.postingMode).success)
    return { invalid: invalidValidation([unknownPostingMode]) };
  const overrideKeys = overrideKeysProblem(request.accountIds, request.overrides);
  if (overrideKeys) return { invalid: invalidValidation(overrideKeys.errors ?? []) };
  return {
    post: {
      message: request.message,
      accountIds: [...new Set(request.accountIds)],
      media: normalizeMedia(request.media),
      accountOptions: request.accountOptions ?? {},
      overrides: normalizeOverrides(request.overrides),
      thread: normalizeThread(request.thread),
    },
  };
}

function invalidValidation(errors: ValidationIssue[]): ValidationResponse {
  return { valid: false, results: [], errors };
}
