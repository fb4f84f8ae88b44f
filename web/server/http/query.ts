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
