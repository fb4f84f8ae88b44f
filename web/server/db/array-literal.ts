const quoteOrBackslash = /["\\]/;

/**
 * A PostgreSQL array literal of text elements (null: NULL), for a `$n::text[]`, `::uuid[]` or
 * `::timestamptz[]` parameter. It writes what pg writes for a JS array (every element quoted, `\`
 * and `"` escaped) with one scan of each element instead of two replacements: the dispatcher's
 * batched statements carry about twenty elements per post, and pg's escaping was 2 % of its
 * samples (bench/support/profile-dispatch.ts).
 */
export function arrayLiteral(values: readonly (string | null | undefined)[]): string {
  let literal = '{';
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (i > 0) literal += ',';
    if (value === null || value === undefined) literal += 'NULL';
    else if (quoteOrBackslash.test(value)) literal += `"${value.replace(/["\\]/g, '\\$&')}"`;
    else literal += `"${value}"`;
  }
  return `${literal}}`;
}
