import { ProblemError, parseBody, problem } from '../problems.ts';
import {
  type NormalizedPost,
  normalizeMedia,
  normalizeOverrides,
  normalizeThread,
  PostingMode,
  PostRequest,
  postingModes,
  type ValidationRequest,
} from '../schemas/post.ts';
import { overrideKeysProblem } from './composer-checks.ts';

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
        errors: [
          {
            path: 'postingMode',
            code: 'invalid_posting_mode',
            message: `Must be one of ${postingModes.join(', ')}`,
          },
        ],
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

const offsetDateTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

export function parseOffsetDateTime(value: string): Date | undefined {
  if (!offsetDateTime.test(value)) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** A parsed `ValidationRequest` as the posting service takes it; 422 for override keys outside `accountIds`. */
export function normalizeValidationRequest(
  request: ValidationRequest,
): Omit<NormalizedPost, 'postingMode' | 'scheduledAt'> {
  assertOverrideKeys(request.accountIds, request.overrides);
  return {
    message: request.message,
    accountIds: [...new Set(request.accountIds)],
    media: normalizeMedia(request.media),
    accountOptions: request.accountOptions ?? {},
    overrides: normalizeOverrides(request.overrides),
    thread: normalizeThread(request.thread),
  };
}
