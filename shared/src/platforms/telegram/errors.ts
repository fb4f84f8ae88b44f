import { PlatformError } from '../../errors.ts';

/** The error envelope of every Bot API method. */
export interface TelegramFailure {
  ok: false;
  error_code: number;
  description: string;
  parameters?: { retry_after?: number; migrate_to_chat_id?: number };
}

export function isTelegramFailure(body: unknown): body is TelegramFailure {
  return (
    typeof body === 'object' &&
    body !== null &&
    (body as { ok?: unknown }).ok === false &&
    typeof (body as { error_code?: unknown }).error_code === 'number'
  );
}

const unreachable400 =
  /chat not found|not enough rights|have no rights|need administrator rights|CHAT_WRITE_FORBIDDEN|CHAT_ADMIN_REQUIRED|group chat was (upgraded|deactivated)|TOPIC_CLOSED/i;
const mediaProblem =
  /PHOTO_|IMAGE_|VIDEO_|FILE_|wrong file|file is too big|wrong type of|failed to get HTTP URL/i;

/**
 * Classifies a Bot API failure. Telegram's descriptions never contain the token, but they
 * are still passed through `redact` because they end up in API responses and logs.
 */
export function telegramError(
  status: number,
  body: unknown,
  context: { chat?: string; redact: (text: string) => string },
): PlatformError {
  const failure = isTelegramFailure(body) ? body : undefined;
  const code = failure?.error_code ?? status;
  const description = context.redact(failure?.description ?? `HTTP ${status}`);
  const chat = context.chat === undefined ? 'the chat' : `chat "${context.chat}"`;
  const init = { status: code };

  if (code === 401 || code === 404) {
    // 404 is what Telegram answers for a token it cannot even parse.
    return new PlatformError(
      'credentials_invalid',
      `Telegram rejected the bot token (${description}); check credentials.botToken`,
      init,
    );
  }
  if (code === 429) {
    const seconds = failure?.parameters?.retry_after;
    return new PlatformError('rate_limited', `Telegram rate limit: ${description}`, {
      ...init,
      ...(typeof seconds === 'number' ? { retryAfterMs: seconds * 1000 } : {}),
    });
  }
  if (code >= 500) {
    return new PlatformError('platform_unavailable', `Telegram is unavailable: ${description}`, init);
  }
  if (code === 403) {
    return new PlatformError('target_unreachable', `The bot cannot post to ${chat}: ${description}`, init);
  }
  const migratedTo = failure?.parameters?.migrate_to_chat_id;
  if (migratedTo !== undefined) {
    return new PlatformError(
      'target_unreachable',
      `${chat} became a supergroup; use chat id ${migratedTo} as platformAccountId`,
      init,
    );
  }
  if (code === 400 && /chat not found/i.test(description)) {
    return new PlatformError(
      'target_unreachable',
      `Telegram cannot find ${chat}: use a @channelhandle or numeric chat id and add the bot to the chat (${description})`,
      init,
    );
  }
  if (code === 400 && unreachable400.test(description)) {
    return new PlatformError('target_unreachable', `The bot cannot post to ${chat}: ${description}`, init);
  }
  if (code === 413 || (code === 400 && mediaProblem.test(description))) {
    return new PlatformError('media_rejected', `Telegram rejected the media: ${description}`, init);
  }
  return new PlatformError('content_rejected', `Telegram rejected the post: ${description}`, init);
}
