import { ProblemError, problem, zodIssues } from '@postwave/shared';
import { z } from 'zod';

/**
 * Query parameters as an object for a zod schema. An empty value (`?status=`, as an HTML form sends
 * a field left blank) counts as absent, so the parameter takes its default rather than failing
 * validation; the last of a repeated parameter wins.
 */
export function queryParams(params: URLSearchParams): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of params) if (value !== '') query[name] = value;
  return query;
}

/** A request's query parameters, as `queryParams` reads them. */
export const queryOf = (request: Request): Record<string, string> =>
  queryParams(new URL(request.url).searchParams);

/**
 * `schema`'s parse of a request's query, or 400 `invalid_request` naming each refused parameter
 * in `errors` (so a too-long cursor is not reported as a bad status or limit).
 */
export function parseQuery<T extends z.ZodType>(schema: T, request: Request): z.infer<T> {
  const parsed = schema.safeParse(queryOf(request));
  if (parsed.success) return parsed.data;
  const names = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.') || 'query'))];
  throw new ProblemError(
    problem('invalid_request', `Query parameter not valid: ${names.join(', ')}`, {
      errors: zodIssues(parsed.error),
    }),
  );
}

/**
 * A list's `limit` query parameter (contract B: default 50, at most `max`): decimal digits only, as
 * OpenAPI's `integer` says. `z.coerce` read `1e2`, `0x10`, ` 5` and `5.0` as numbers.
 */
export const pageLimit = (max = 200) =>
  z.preprocess(
    (value) => (typeof value === 'string' && /^[0-9]{1,9}$/.test(value) ? Number(value) : value),
    z
      .number({ error: `A whole number from 1 to ${max}, in digits` })
      .int()
      .min(1)
      .max(max)
      .default(50),
  );
