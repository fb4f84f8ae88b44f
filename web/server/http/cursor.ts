import { ProblemError, parseOffsetDateTime, problem } from '@postwave/shared';
import type { KeysetPosition } from '#server/db/keyset.ts';
import { isUuid } from './ids.ts';

/*
 * The opaque `cursor` / `nextCursor` of every keyset-paginated list (posts, webhook deliveries):
 * the last row's (createdAt, id), base64url. A cursor that does not decode is 400 invalid_request.
 */

export function encodeCursor(position: KeysetPosition): string {
  return Buffer.from(`${position.createdAt.toISOString()}|${position.id}`).toString('base64url');
}

export function decodeCursor(cursor: string): KeysetPosition {
  const [iso, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = iso ? parseOffsetDateTime(iso) : undefined;
  if (!createdAt || !id || !isUuid(id))
    throw new ProblemError(problem('invalid_request', 'The cursor is not valid'));
  return { createdAt, id };
}

/**
 * One page out of `limit + 1` rows read: the first `limit`, and the cursor after the last of them
 * when the extra row shows there is more.
 */
export function keysetPage<T>(
  rows: readonly T[],
  limit: number,
  positionOf: (row: T) => KeysetPosition,
): { page: T[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, nextCursor: rows.length > limit && last ? encodeCursor(positionOf(last)) : null };
}
