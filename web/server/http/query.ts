/**
 * A request's query parameters as an object for a zod schema. An empty value (`?status=`, as an
 * HTML form sends a field left blank) counts as absent, so the parameter takes its default rather
 * than failing validation; the last of a repeated parameter wins.
 */
export function queryOf(request: Request): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of new URL(request.url).searchParams) if (value !== '') query[name] = value;
  return query;
}
