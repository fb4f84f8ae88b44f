import { idempotencyKeyParameter } from '@postwave/shared';

/**
 * The Scheduler's `Idempotency-Key` header in its OpenAPI document. Keys are the user's within the
 * workspace a request acts in, so a token bound to one workspace is never answered with another's
 * post (docs/idempotency.md#decisions); they live in the database.
 */
export const schedulerIdempotencyKey = idempotencyKeyParameter(
  'the user within the workspace the request acts in (the same key in another workspace is a new request, never a replay)',
  'Keys live in the database: every instance sees them and a restart forgets nothing.',
);
