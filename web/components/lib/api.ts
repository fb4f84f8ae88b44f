/** Calls the Scheduler's REST API from the browser with the session cookie. */

export interface ProblemIssue {
  path?: string;
  accountId?: string;
  code: string;
  message: string;
  hint?: string;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly errors: ProblemIssue[];
  /** What the person can do, when a platform refused or failed (contract F); shown under the message. */
  readonly hint: string | undefined;
  readonly body: Record<string, unknown>;
  constructor(status: number, body: Record<string, unknown>) {
    const detail = typeof body.detail === 'string' ? body.detail : undefined;
    const title = typeof body.title === 'string' ? body.title : undefined;
    super(detail ?? title ?? `Request failed (${status})`);
    this.status = status;
    this.code = typeof body.code === 'string' ? body.code : 'unknown';
    this.errors = Array.isArray(body.errors) ? (body.errors as ProblemIssue[]) : [];
    this.hint = typeof body.hint === 'string' && body.hint ? body.hint : undefined;
    this.body = body;
  }
}

/** The hint of an API failure (what the person can do), when it has one. */
export const hintOf = (error: unknown): string | undefined =>
  error instanceof ApiError ? error.hint : undefined;

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, { detail: 'Could not reach Postwave. Check your connection and try again.' });
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = text ? JSON.parse(text) : {};
  } catch {
    parsed = { detail: `Unexpected answer from the server (${response.status})` };
  }
  if (!response.ok) throw new ApiError(response.status, parsed);
  return parsed as T;
}

/** Whether the server refused a time because it has passed (docs/api.md: `scheduled_in_past`). */
export const isPastTime = (error: unknown): boolean =>
  error instanceof ApiError && error.errors.some((issue) => issue.code === 'scheduled_in_past');

/**
 * A form's field errors from a refusal: each issue whose `path` is one of the form's fields lands
 * on that field, in the words `plain` gives it (the field's own sentence) or the server's message;
 * `summary` is one plain sentence for the form (not the validator's joined paths), and `rest` the
 * issues that named no field of the form.
 */
export function fieldProblems(
  error: unknown,
  plain: Record<string, string | ((issue: ProblemIssue) => string)>,
): { fields: Record<string, string>; summary: string; rest: ProblemIssue[] } {
  if (!(error instanceof ApiError) || error.errors.length === 0) {
    return { fields: {}, summary: describeError(error), rest: [] };
  }
  const fields: Record<string, string> = {};
  const rest: ProblemIssue[] = [];
  for (const issue of error.errors) {
    const words = issue.path === undefined ? undefined : plain[issue.path];
    if (words === undefined) rest.push(issue);
    else fields[issue.path!] ??= typeof words === 'function' ? words(issue) : words;
  }
  const landed = Object.keys(fields).length;
  const summary =
    landed === 0
      ? describeError(error)
      : rest.length === 0
        ? landed === 1
          ? 'Check the marked field and try again.'
          : 'Check the marked fields and try again.'
        : `Check the marked fields. Also: ${rest.map((i) => i.message).join(' ')}`;
  return { fields, summary, rest };
}

/** A sentence for the user from an API failure, with the first field issue when there is one. */
export function describeError(error: unknown): string {
  return describeFormError(error, () => false);
}

/**
 * The form-level message for an error whose issues the form also shows beside their fields
 * (`shownBeside` says which paths): the summary, plus the first issue no field shows, so that
 * nothing is said twice.
 */
export function describeFormError(
  error: unknown,
  shownBeside: (path: string | undefined) => boolean,
): string {
  if (error instanceof ApiError) {
    const first = error.errors.find((issue) => !shownBeside(issue.path))?.message;
    return first && !error.message.includes(first) ? `${error.message} (${first})` : error.message;
  }
  return error instanceof Error ? error.message : 'Something went wrong.';
}
