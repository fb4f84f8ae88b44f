import type { Problem } from '@postwave/shared';

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

  async request<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    init: RequestInit = {},
  ): Promise<T> {
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
      throw new Error(
        `Could not reach ${this.server} (${(error as Error).cause ?? (error as Error).message}). ` +
          'Check the URL (--server or POSTWAVE_URL) and your connection.',
      );
    }
    return readResponse<T>(response);
  }
}

export async function readResponse<T>(response: Response): Promise<T> {
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (response.ok) return parsed as T;
  // A problem body (RFC 9457), or whatever a proxy in between answered.
  const problem = (parsed ?? {}) as Partial<Problem>;
  const code = problem.code ?? `http_${response.status}`;
  let message = problem.detail ?? problem.title ?? `The server answered ${response.status}`;
  for (const issue of problem.errors ?? []) {
    const where = issue.accountId ?? issue.path;
    message += `\n  - ${where ? `${where}: ` : ''}${issue.message} (${issue.code})`;
  }
  throw new ApiError(response.status, code, message, parsed);
}

/** What to do about an error, in one line the user can act on. */
export function hintFor(error: ApiError): string | undefined {
  switch (error.status) {
    case 401:
      return 'Your token is missing, expired or revoked: run `postwave login`.';
    case 403:
      return 'This token may not do that; some actions need the web app.';
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
