import { PlatformError } from '../../errors.ts';
import { platformFetch, readJson } from '../../http/fetch.ts';
import { telegramError } from './errors.ts';

export interface TelegramChat {
  id: number;
  type: 'private' | 'group' | 'supergroup' | 'channel';
  title?: string;
  username?: string;
  first_name?: string;
  last_name?: string;
}

export interface TelegramMessage {
  message_id: number;
  chat: TelegramChat;
  date: number;
}

export interface TelegramUser {
  id: number;
  is_bot: boolean;
  first_name: string;
  username?: string;
}

export interface TelegramChatMember {
  status: 'creator' | 'administrator' | 'member' | 'restricted' | 'left' | 'kicked';
  can_post_messages?: boolean;
  can_send_messages?: boolean;
}

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** The chat the call is about, named in error messages. */
  chat?: string;
}

/**
 * One bot's view of the Bot API. The token is part of every URL, so no URL, and no error
 * that could carry one, leaves this class.
 */
export class TelegramBotApi {
  readonly #apiUrl: string;
  readonly #token: string;
  readonly #timeoutMs: number;

  constructor(options: { apiUrl: string; token: string; timeoutMs: number }) {
    this.#apiUrl = options.apiUrl;
    this.#token = options.token;
    this.#timeoutMs = options.timeoutMs;
  }

  /** Calls `method` with a JSON body, or multipart when files are attached. */
  async call<T>(
    method: string,
    body: Record<string, unknown> | FormData,
    options: CallOptions = {},
  ): Promise<T> {
    const init =
      body instanceof FormData
        ? { body }
        : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
    let response: Response;
    try {
      response = await platformFetch(`${this.#apiUrl}/bot${this.#token}/${method}`, {
        method: 'POST',
        ...init,
        timeoutMs: options.timeoutMs ?? this.#timeoutMs,
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (error) {
      throw this.#withoutToken(error);
    }
    const payload = await readJson(response).catch(() => undefined);
    if (response.ok && isSuccess(payload)) return payload.result as T;
    if (response.ok) {
      // Telegram may have acted on the request: retrying could publish twice.
      throw new PlatformError(
        'platform_unavailable',
        `Telegram answered ${method} with an unreadable response`,
        {
          status: response.status,
          retryable: false,
        },
      );
    }
    throw telegramError(response.status, payload, {
      redact: this.redact,
      ...(options.chat ? { chat: options.chat } : {}),
    });
  }

  readonly redact = (text: string): string => text.replaceAll(this.#token, '<bot-token>');

  /** Transport errors keep their classification; their cause may quote the URL, so it is dropped. */
  #withoutToken(error: unknown): PlatformError {
    if (error instanceof PlatformError) {
      return new PlatformError(error.code, this.redact(error.message), {
        retryable: error.retryable,
        ...(error.status === undefined ? {} : { status: error.status }),
      });
    }
    return new PlatformError('network_error', 'Could not reach the Telegram Bot API');
  }
}

function isSuccess(body: unknown): body is { ok: true; result: unknown } {
  return (
    typeof body === 'object' && body !== null && (body as { ok?: unknown }).ok === true && 'result' in body
  );
}
