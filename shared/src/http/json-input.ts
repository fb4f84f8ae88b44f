/**
 * Checks every parsed JSON body once, on both servers, before anything else sees it: nesting
 * deeper than 32 levels (recursive code downstream, e.g. canonical JSON for Idempotency-Key, must
 * never meet it) and NUL characters (PostgreSQL text and jsonb refuse them) are a client error.
 * Iterative, so a hostile depth cannot overflow this check either.
 */
export const maxJsonDepth = 32;

/** Why the value is not acceptable input, or undefined when it is. */
export function unsafeJsonReason(value: unknown, maxDepth = maxJsonDepth): string | undefined {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (typeof current === 'string') {
      if (current.includes('\u0000')) return 'Text may not contain NUL characters (\\u0000)';
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (depth >= maxDepth) return `The JSON body is nested deeper than ${maxDepth} levels`;
    if (Array.isArray(current)) {
      for (const item of current) stack.push([item, depth + 1]);
      continue;
    }
    for (const [key, item] of Object.entries(current)) {
      if (key.includes('\u0000')) return 'Field names may not contain NUL characters (\\u0000)';
      stack.push([item, depth + 1]);
    }
  }
  return undefined;
}

/** NUL in form fields or query values (decoded), the same rule as for JSON text. */
export function hasNul(values: Iterable<string>): boolean {
  for (const value of values) if (value.includes('\u0000')) return true;
  return false;
}
