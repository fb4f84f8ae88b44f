import { ProblemError, problem, unsafeJsonReason } from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import { readLimitedBytes } from '#server/http/body.ts';
import { decodeImportText, refuseLoneSurrogates } from './encoding.ts';
import { type ImportRowInput, parseCsvImport, parseJsonImport } from './parse.ts';
import { DryRunQuery, maxImportBytes } from './schema.ts';
import type { ImportFormat } from './service.ts';
import { expandTemplates } from './templates.ts';

export interface ImportRequest {
  format: ImportFormat;
  dryRun: boolean;
  /** The body as sent: its digest makes a commit idempotent per file. */
  text: string;
  /** What Idempotency-Key fingerprints: the parsed JSON, or the CSV text. */
  fingerprintBody: unknown;
  rows: ImportRowInput[];
}

/**
 * Reads and parses an import request: query, content type, size limit, CSV or JSON rows (a JSON
 * row's `templateId` expanded from the workspace's templates).
 */
export async function readImportRequest(
  request: Request,
  ctx: AppContext,
  workspaceId: string,
): Promise<ImportRequest> {
  const query = DryRunQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) throw new ProblemError(problem('invalid_request', 'dryRun must be true or false'));
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const format: ImportFormat | undefined =
    type === 'text/csv' ? 'csv' : type === 'application/json' ? 'json' : undefined;
  if (!format)
    throw new ProblemError(
      problem('unsupported_media_type', 'Send the file as text/csv or application/json'),
    );
  const bytes = await readLimitedBytes(
    request,
    maxImportBytes,
    () => new ProblemError(problem('payload_too_large', `An import file is at most ${maxImportBytes} bytes`)),
  );
  const text = decodeImportText(bytes, format);
  if (text.includes('\u0000'))
    throw new ProblemError(problem('invalid_request', 'The file contains NUL characters'));
  const dryRun = query.data.dryRun === 'true';
  if (format === 'csv') return { format, dryRun, text, fingerprintBody: text, rows: parseCsvImport(text) };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ProblemError(problem('invalid_request', 'The body is not valid JSON'));
  }
  const unsafe = unsafeJsonReason(value);
  if (unsafe) throw new ProblemError(problem('invalid_request', unsafe));
  refuseLoneSurrogates(value);
  const templated = await expandTemplates(ctx, workspaceId, value);
  return {
    format,
    dryRun,
    text,
    fingerprintBody: value,
    rows: parseJsonImport(templated.value, templated.errors),
  };
}
