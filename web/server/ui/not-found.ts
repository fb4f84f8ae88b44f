import { ProblemError } from '@postwave/shared';
import { notFound } from 'next/navigation';

/**
 * What a page shows for a resource: the value, or Next's 404 page when the resource really does
 * not exist (another user's id, a malformed id, a deleted post: the operation's 404 problem).
 * Anything else (the database is down, a bug) is rethrown to the error boundary (app/error.tsx),
 * which says the server has a problem instead of claiming the page does not exist.
 */
export async function foundOr404<T>(lookup: Promise<T>): Promise<T> {
  try {
    return await lookup;
  } catch (error) {
    if (error instanceof ProblemError && error.problem.status === 404) notFound();
    throw error;
  }
}
