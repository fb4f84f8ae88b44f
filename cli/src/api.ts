import type * as z from 'zod/mini';
import { Problem } from './responses.ts';

/** A thin client for the Scheduler's HTTP API that turns problem responses into readable errors. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly body: unknown;
  constructor(status: number, code: string, message: string, body: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.body = body;
  }
}

/**
 * An answer no Postwave server gives: not JSON, JSON of another shape, or an error without a
 * problem body (another server at that URL, or a proxy's error page). Its status is kept, so a
 * missing endpoint (404, 405) still reads as one.
 */
export class UnexpectedAnswer extends ApiError {
  override name = 'UnexpectedAnswer';
}

/**
 * The server could not be reached (refused, unknown host, TLS, reset): why in a word (the
 * system's error code, e.g. ECONNREFUSED, when there is one), never the error's own dump.
 */
export class Unreachable extends Error {
  override name = 'Unreachable';
  readonly code = 'unreachable';
  constructor(server: string, error: unknown) {
    super(
      `Could not reach ${server} (${networkReason(error)}). Check the URL (--server or POSTWAVE_URL) and your connection.`,
    );
  }
}

/** Why fetch failed, in a word: undici's cause carries the system's code (ECONNREFUSED, ENOTFOUND). */
export function networkReason(error: unknown): string {
  const cause = (error as Error).cause as (Error & { code?: string }) | undefined;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}

export interface ApiOptions {
  server: string;
  token?: string;
  fetch?: typeof fetch;
}

export class Api {
  readonly server: string;
  readonly token: string | undefined;
  private readonly fetcher: typeof fetch;

  constructor(options: ApiOptions) {
    this.server = options.server;
    this.token = options.token;
    this.fetcher = options.fetch ?? fetch;
  }

  url(path: string): string {
    return new URL(path, `${this.server}/`).toString();
  }

  /** `shape` (responses.ts) is what a successful answer must look like; it is answered as sent. */
  async request<S extends z.ZodMiniType>(
    method: string,
    path: string,
    shape: S,
    body?: unknown,
    init: RequestInit = {},
  ): Promise<z.infer<S>> {
    const headers = new Headers(init.headers);
    if (this.token) headers.set('authorization', `Bearer ${this.token}`);
    headers.set('accept', 'application/json, application/problem+json');
    let payload = init.body;
    if (body !== undefined) {
      headers.set('content-type', 'application/json');
      payload = JSON.stringify(body);
    }
    let response: Response;
    try {
      response = await this.fetcher(this.url(path), { ...init, method, headers, body: payload });
    } catch (error) {
      throw new Unreachable(this.server, error);
    }
    return readResponse(response, shape);
  }
}

/**
 * The answer's JSON when it has `shape`; else an ApiError from its problem, or UnexpectedAnswer.
 * The JSON is answered as sent (not as parsed: that would drop fields --json prints).
 */
export async function readResponse<S extends z.ZodMiniType>(
  response: Response,
  shape: S,
): Promise<z.infer<S>> {
  const text = await response.text();
  let parsed: unknown;
  let json = true;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    json = false;
  }
  if (!json) throw unexpectedAnswer(response, `${contentType(response) ?? 'a body'} instead of JSON`);
  if (response.ok) {
    const checked = shape.safeParse(parsed);
    if (checked.success) return parsed as z.infer<S>;
    throw unexpectedAnswer(response, text ? mismatch(checked.error.issues[0]) : 'no body');
  }
  const problem = Problem.safeParse(parsed);
  if (!problem.success) throw unexpectedAnswer(response, text ? 'JSON that is not a problem' : 'no body');
  const { code, detail, title, errors } = problem.data;
  let message = detail ?? title ?? `The server answered ${response.status}`;
  for (const issue of errors ?? []) {
    const where = issue.accountId ?? issue.path;
    message += `\n  - ${where ? `${where}: ` : ''}${issue.message} (${issue.code})`;
  }
  throw new ApiError(response.status, code, message, parsed);
}

export function contentType(response: Response): string | undefined {
  return response.headers.get('content-type')?.split(';')[0]?.trim() || undefined;
}

/** One line: which URL answered what instead of what the CLI asked for. */
export function unexpectedAnswer(response: Response, why: string): UnexpectedAnswer {
  return new UnexpectedAnswer(
    response.status,
    'unexpected_answer',
    `${response.url || 'The server'} did not answer like a Postwave server (HTTP ${response.status}, ${why})`,
    undefined,
  );
}

/** `accounts: expected array`: where the answer first differs from what the CLI reads. */
function mismatch(issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return 'an unexpected answer';
  if (issue.code === 'invalid_type' && issue.expected === 'undefined') return 'a body where none belongs';
  const where = issue.path.length ? `${issue.path.join('.')}: ` : '';
  return `${where}${issue.code === 'invalid_type' ? `expected ${issue.expected}` : issue.code.replaceAll('_', ' ')}`;
}

/** What to do about an error, in one line the user can act on. */
export function hintFor(error: ApiError): string | undefined {
  // The status of an unexpected answer says nothing about Postwave's rules.
  if (error instanceof UnexpectedAnswer) return undefined;
  switch (error.status) {
    case 401:
      return 'Your token is missing, expired or revoked: run `postwave login`.';
    case 403: {
      // Workspaces (contract G): a role too low names the role it takes; other refusals
      // (self_approval…) say it all in their detail.
      const body = error.body as { requiredRole?: unknown } | undefined;
      if (typeof body?.requiredRole === 'string')
        return `Ask an owner or admin of the workspace for the ${body.requiredRole} role (or higher).`;
      return error.code === 'forbidden'
        ? 'This token may not do that; some actions need the web app.'
        : undefined;
    }
    case 404:
      return 'Check the id (`postwave posts list`, `postwave accounts`).';
    case 409:
      return 'Posted posts cannot be changed or deleted.';
    case 413:
      return 'The file is over the server limit (MAX_UPLOAD_BYTES).';
    case 415:
      return 'Use an image, video or PDF file of a type the platforms accept.';
    case 429:
      return 'Rate limited: wait a moment and try again.';
    default:
      return error.status >= 500 ? 'The server had a problem; try again later.' : undefined;
  }
}
