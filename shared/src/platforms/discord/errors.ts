import { PlatformError } from '../../errors.ts';
import { parseRetryAfter, readJson } from '../../http/fetch.ts';

/** Discord's JSON error body: `{ code, message, errors? }`, or a rate limit's `{ retry_after, global }`. */
interface DiscordErrorBody {
  code?: number;
  message?: string;
  errors?: unknown;
  retry_after?: number;
  global?: boolean;
}

// Discord's JSON error codes (https://discord.com/developers/docs/topics/opcodes-and-status-codes).
const unknownWebhook = 10015;
const invalidWebhookToken = 50027;

/** Turns a non-2xx Discord answer into a classified PlatformError. Never echoes the webhook URL. */
export async function discordError(response: Response): Promise<PlatformError> {
  const body = asErrorBody(await readJson(response));
  const status = response.status;
  const said = describe(body);

  if (status === 429) {
    // The body's retry_after is a float in seconds and more precise than the header.
    const retryAfterMs =
      typeof body.retry_after === 'number'
        ? Math.ceil(body.retry_after * 1000)
        : parseRetryAfter(response.headers.get('retry-after'));
    const scope = body.global || response.headers.get('x-ratelimit-global') ? 'global ' : '';
    return new PlatformError('rate_limited', `Discord ${scope}rate limit reached; retry later`, {
      status,
      retryAfterMs,
    });
  }
  if (status === 401 || body.code === invalidWebhookToken) {
    return new PlatformError(
      'credentials_invalid',
      `Discord refused the webhook token${said}; the webhook URL was reset or is wrong`,
      { status },
    );
  }
  if (status === 404) {
    const what =
      body.code === unknownWebhook ? 'The webhook no longer exists' : 'The channel or thread was not found';
    return new PlatformError('target_unreachable', `${what}${said}`, { status });
  }
  if (status === 403) {
    return new PlatformError('target_unreachable', `Discord refused to post to this channel${said}`, {
      status,
    });
  }
  if (status === 413) {
    return new PlatformError('media_rejected', `Discord refused the attachments as too large${said}`, {
      status,
    });
  }
  if (status === 400) {
    const code = mentionsFiles(body.errors) ? 'media_rejected' : 'content_rejected';
    return new PlatformError(code, `Discord rejected the message${said}`, { status });
  }
  if (status >= 500) {
    return new PlatformError('platform_unavailable', `Discord is unavailable (HTTP ${status})`, { status });
  }
  return new PlatformError('internal', `Discord answered HTTP ${status}${said}`, { status });
}

function asErrorBody(value: unknown): DiscordErrorBody {
  return value && typeof value === 'object' ? (value as DiscordErrorBody) : {};
}

/** `: Invalid Form Body (content: Must be 2000 or fewer in length.)`, or nothing when Discord said nothing. */
function describe(body: DiscordErrorBody): string {
  const details = flattenErrors(body.errors).slice(0, 3);
  const message = typeof body.message === 'string' ? body.message.slice(0, 200) : '';
  if (!message && details.length === 0) return '';
  return `: ${message}${details.length ? ` (${details.join('; ')})` : ''}`;
}

/**
 * Discord nests field errors by path: `{ content: { _errors: [{ code, message }] },
 * attachments: { 0: { filename: { _errors: [...] } } } }`.
 */
export function flattenErrors(errors: unknown, path: string[] = []): string[] {
  if (!errors || typeof errors !== 'object') return [];
  const out: string[] = [];
  for (const [key, value] of Object.entries(errors)) {
    if (key === '_errors' && Array.isArray(value)) {
      for (const item of value) {
        const message = (item as { message?: unknown })?.message;
        if (typeof message === 'string') out.push(`${path.join('.') || 'body'}: ${message.slice(0, 200)}`);
      }
    } else {
      out.push(...flattenErrors(value, [...path, key]));
    }
  }
  return out;
}

function mentionsFiles(errors: unknown): boolean {
  if (!errors || typeof errors !== 'object') return false;
  return Object.keys(errors).some((key) => key === 'attachments' || key.startsWith('files'));
}
