import { jsonDepthExceeds, maxJsonDepth } from '../idempotency/fingerprint.ts';
import { ProblemError, problem } from '../problems.ts';

/** `application/json`, or a structured `+json` type (`application/merge-patch+json`). */
const jsonMediaType = /^(application\/json|[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+\+json)$/;

/**
 * Whether a Content-Type header names JSON in UTF-8: a JSON type with no charset or `utf-8`. Both
 * servers read a JSON body only under such a type and refuse any other with `notJsonProblem`:
 * read as "no body", a form or text body would be reported as a missing object (400), which hides
 * the real mistake; and JSON exchanged between systems is UTF-8 (RFC 8259), so a body declared in
 * another charset would be read wrong.
 */
export function isJsonContentType(header: string | null | undefined): boolean {
  const [type = '', ...parameters] = (header ?? '').toLowerCase().split(';');
  if (!jsonMediaType.test(type.trim())) return false;
  return parameters.every((parameter) => {
    const [name = '', value = ''] = parameter.split('=').map((part) => part.trim());
    return name !== 'charset' || ['utf-8', 'utf8'].includes(value.replace(/^"(.*)"$/, '$1'));
  });
}

/** 415 for a body sent under another type than UTF-8 JSON (contract B), worded alike on both servers. */
export function notJsonProblem(): ProblemError {
  return new ProblemError(
    problem(
      'unsupported_media_type',
      'Send the body as UTF-8 JSON (Content-Type: application/json, no charset or charset=utf-8)',
    ),
  );
}

/** Bytes that are not UTF-8 are not JSON text (RFC 8259): 400, not characters silently replaced. */
export const notUtf8Detail = 'The JSON body is not valid UTF-8';
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** `bytes` as text when they are well-formed UTF-8, else undefined (both servers read JSON bodies with it). */
export function strictUtf8Text(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Checks every parsed JSON body once, on both servers, before anything else sees it: nesting
 * deeper than 32 levels (the same rule and function the Idempotency-Key fingerprint uses), NUL
 * characters (PostgreSQL text and jsonb refuse them) and numbers beyond a double's range are a
 * client error. Iterative, so a hostile depth cannot overflow this check either.
 */
export function unsafeJsonReason(value: unknown, maxDepth = maxJsonDepth): string | undefined {
  if (jsonDepthExceeds(value, maxDepth)) return `The JSON body is nested deeper than ${maxDepth} levels`;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current === 'string') {
      if (current.includes('\u0000')) return 'Text may not contain NUL characters (\\u0000)';
      continue;
    }
    // `1e400` parses as Infinity, which JSON cannot carry: stored, it would come back as null.
    if (typeof current === 'number') {
      if (!Number.isFinite(current)) return 'A number is out of range (JSON numbers must fit a double)';
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (Array.isArray(current)) {
      stack.push(...current);
      continue;
    }
    for (const [key, item] of Object.entries(current)) {
      if (key.includes('\u0000')) return 'Field names may not contain NUL characters (\\u0000)';
      stack.push(item);
    }
  }
  return undefined;
}

/**
 * Where a parsed JSON value first holds half a UTF-16 surrogate pair (`"\ud83d"` alone), in a
 * string (`message`, `thread[1].message`, after `prefix`) or a key (`<key>`); undefined when none.
 * Such text is well-formed JSON but no character: sent on, it would be published as U+FFFD.
 * Recursive: run it after `unsafeJsonReason` has bounded the depth.
 */
export function loneSurrogatePath(value: unknown, prefix = ''): string | undefined {
  if (typeof value === 'string') return value.isWellFormed() ? undefined : prefix;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = loneSurrogatePath(value[i], `${prefix}[${i}]`);
      if (found !== undefined) return found;
    }
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const at = prefix ? `${prefix}.` : '';
      if (!key.isWellFormed()) return `${at}<key>`;
      const found = loneSurrogatePath(item, `${at}${key}`);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/**
 * What is wrong with a parsed JSON body, checked once on both servers before anything else sees
 * it: `unsafeJsonReason`'s refusals (400 `invalid_request`), then a lone surrogate (422
 * `validation_failed`, `lone_surrogate` at its path, as imports answer it).
 */
export function jsonBodyProblem(value: unknown): ProblemError | undefined {
  const unsafe = unsafeJsonReason(value);
  if (unsafe) return new ProblemError(problem('invalid_request', unsafe));
  const path = loneSurrogatePath(value);
  if (path === undefined) return undefined;
  const message = 'Half a UTF-16 surrogate pair is no character; fix the \\u escape';
  return new ProblemError(
    problem('validation_failed', `Text at ${path || 'the top'} holds a lone surrogate`, {
      errors: [{ ...(path ? { path } : {}), code: 'lone_surrogate', message }],
    }),
  );
}

/** NUL in form fields or query values (decoded), the same rule as for JSON text. */
export function hasNul(values: Iterable<string>): boolean {
  for (const value of values) if (value.includes('\u0000')) return true;
  return false;
}

/**
 * Whether a raw request target (`/path?query`) has a malformed percent-escape (`%ZZ`, a lone `%`,
 * bytes that are not UTF-8) or an encoded NUL in its path or query. Both servers answer such a
 * target with 400 before routing, so no handler ever meets a string it cannot decode.
 */
export function malformedRequestTarget(target: string): boolean {
  // Only a percent-escape can be malformed or hide a NUL: most targets have none (every request pays this).
  if (!target.includes('%')) return false;
  const [path = '', query = ''] = splitOnce(target, '?');
  const pieces = [path, ...query.split(/[&;]/).flatMap((pair) => splitOnce(pair.replace(/\+/g, ' '), '='))];
  for (const piece of pieces) {
    if (!piece.includes('%')) continue;
    let decoded: string;
    try {
      decoded = decodeURIComponent(piece);
    } catch {
      return true;
    }
    if (decoded.includes('\u0000')) return true;
  }
  return false;
}

function splitOnce(text: string, separator: string): [string, string] {
  const at = text.indexOf(separator);
  return at === -1 ? [text, ''] : [text.slice(0, at), text.slice(at + 1)];
}
