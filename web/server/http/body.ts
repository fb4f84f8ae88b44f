import {
  isJsonContentType,
  jsonBodyProblem,
  notJsonProblem,
  notUtf8Detail,
  ProblemError,
  parseBody,
  problem,
  strictUtf8Text,
} from '@postwave/shared';
import type { z } from 'zod';

/** JSON bodies are small; anything bigger than this is refused before parsing (413, in /openapi.json). */
export const maxJsonBytes = 1024 * 1024;

/** The parsed JSON body: malformed JSON or a body of the wrong shape is 400 invalid_request. */
export async function readJson(request: Request): Promise<unknown> {
  const value = await readOptionalJson(request);
  if (value === undefined) throw new ProblemError(problem('invalid_request', 'A JSON body is required'));
  return value;
}

/**
 * As `readJson`, but an empty body is `undefined` (for bodies whose every field is optional). A
 * body under another Content-Type than JSON is 415, as on the self-hosted server.
 */
export async function readOptionalJson(request: Request): Promise<unknown> {
  const text = strictUtf8Text(
    await readLimitedBytes(
      request,
      maxJsonBytes,
      () => new ProblemError(problem('payload_too_large', 'The JSON body is too large')),
    ),
  );
  if (text === undefined) throw new ProblemError(problem('invalid_request', notUtf8Detail));
  if (text.trim() === '') return undefined;
  if (!isJsonContentType(request.headers.get('content-type'))) throw notJsonProblem();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ProblemError(problem('invalid_request', 'The body is not valid JSON'));
  }
  const refused = jsonBodyProblem(value);
  if (refused) throw refused;
  return value;
}

/**
 * The JSON body parsed by `schema`: a body of the wrong shape is 400 `invalid_request`, one whose
 * values break a rule is 422 `validation_failed` (`schemaProblem`). Unknown fields are ignored.
 */
export async function readBody<T extends z.ZodType>(request: Request, schema: T): Promise<z.infer<T>> {
  return parseBody(schema, await readJson(request));
}

/**
 * The body as text, refusing (with `tooLarge()`) a declared or actual size over `maxBytes` without
 * reading more than that.
 */
export async function readLimitedText(
  request: Request,
  maxBytes: number,
  tooLarge: () => Error,
): Promise<string> {
  return (await readLimitedBytes(request, maxBytes, tooLarge)).toString('utf8');
}

/** The body's bytes, with the same size refusal as `readLimitedText` (for callers that check the encoding). */
export async function readLimitedBytes(
  request: Request,
  maxBytes: number,
  tooLarge: () => Error,
): Promise<Buffer> {
  if (Number(request.headers.get('content-length') ?? '0') > maxBytes) throw tooLarge();
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
