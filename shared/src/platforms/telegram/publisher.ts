import { hash } from 'node:crypto';
import { PlatformError } from '../../errors.ts';
import { defaultRequestTimeoutMs } from '../../http/fetch.ts';
import type { MediaFile, MediaInfo } from '../../media/media-file.ts';
import type { AccountMetricName } from '../manifest.ts';
import type {
  AccountProfile,
  PlatformAccount,
  PlatformCallContext,
  PostContent,
  PublishContext,
  Publisher,
  PublishRateLimit,
  PublishResult,
  ValidationOutcome,
} from '../types.ts';
import {
  TelegramBotApi,
  type TelegramChat,
  type TelegramChatMember,
  type TelegramMessage,
  type TelegramUser,
} from './bot-api.ts';
import { defaultTelegramApiUrl, defaultTelegramLimits, type TelegramLimits } from './limits.ts';
import { telegramManifest } from './manifest.ts';
import { isPlanProblem, planMedia, sendMethodFor, type TelegramMediaType } from './media-plan.ts';
import { type TelegramOptions, telegramCredentialsSchema, telegramOptionsSchema } from './options.ts';
import { validateTelegramPost } from './validate.ts';

export interface TelegramPublisherOptions {
  apiUrl?: string;
  limits?: TelegramLimits;
  /** For calls without files; uploads get one more second per megabyte on top. */
  requestTimeoutMs?: number;
}

/**
 * Telegram rate-limits each bot (about 30 messages a second in bulk), not the platform: each bot
 * gets up to 30 sends in flight, and many bots together up to 100. A 429's retry_after is the
 * safety net when a bot goes faster than Telegram allows.
 */
const telegramConcurrency = 100;
const telegramBotConcurrency = 30;
/**
 * Telegram's FAQ: "no more than 30 messages per second or so" per bot in bulk, and "not more than
 * 20 messages per minute to the same group". The bot rate holds by default. The group rate is
 * documented for groups only (channels are not named, and a channel is where a scheduler mostly
 * posts), so it applies only when PUBLISH_RATE_TELEGRAM_CHAT sets it (e.g. `20/60s`); by default
 * Telegram's own 429 and retry_after pace a chat. PUBLISH_RATE_TELEGRAM_BOT replaces the bot rate.
 */
const telegramBotRate = { limit: 30, windowMs: 1000 };
const telegramChatRate = { limit: 20, windowMs: 60_000, enabled: false };

export class TelegramPublisher implements Publisher<TelegramOptions> {
  readonly id = telegramManifest.id;
  readonly displayName = telegramManifest.name;
  readonly optionsSchema = telegramOptionsSchema;
  readonly credentialsSchema = telegramCredentialsSchema;
  readonly concurrency = telegramConcurrency;
  readonly credentialConcurrency = telegramBotConcurrency;
  readonly #apiUrl: string;
  readonly #limits: TelegramLimits;
  readonly #timeoutMs: number;

  constructor(options: TelegramPublisherOptions = {}) {
    this.#apiUrl = (options.apiUrl ?? defaultTelegramApiUrl).replace(/\/+$/, '');
    this.#limits = options.limits ?? defaultTelegramLimits;
    this.#timeoutMs = options.requestTimeoutMs ?? defaultRequestTimeoutMs;
  }

  /** One key per bot: a digest of its token, so the token itself is never kept as a map key. */
  concurrencyKey(account: PlatformAccount): string | undefined {
    const token = account.credentials.botToken;
    return typeof token === 'string' ? hash('sha256', token, 'base64url') : undefined;
  }

  rateLimits(account: PlatformAccount): PublishRateLimit[] {
    const bot = this.concurrencyKey(account);
    if (bot === undefined) return [];
    return [
      { scope: 'bot', key: bot, ...telegramBotRate },
      { scope: 'chat', key: `${bot}:${account.platformAccountId}`, ...telegramChatRate },
    ];
  }

  async validate(
    post: PostContent,
    _account: PlatformAccount,
    media: MediaInfo[],
    options: TelegramOptions,
  ): Promise<ValidationOutcome> {
    return validateTelegramPost(post, media, options, this.#limits);
  }

  async publish(
    post: PostContent,
    account: PlatformAccount,
    media: MediaFile[],
    options: TelegramOptions,
    context: PublishContext,
  ): Promise<PublishResult> {
    const api = this.#api(account);
    const chat = account.platformAccountId;
    const plan = planMedia(media);
    if (isPlanProblem(plan))
      throw new PlatformError('content_rejected', `Telegram cannot publish this media: ${plan.code}`);
    const common = {
      ...commonParams(chat, options),
      // A thread part answers the message before it (for an album, its first message).
      ...(context.replyTo
        ? { reply_parameters: { message_id: Number(context.replyTo.parent.platformPostId) } }
        : {}),
    };
    const call = { signal: context.signal, chat };

    let sent: TelegramMessage;
    if (plan.kind === 'text') {
      sent = await api.call<TelegramMessage>(
        'sendMessage',
        { ...common, ...textParams(post.message, options) },
        call,
      );
    } else if (plan.kind === 'single') {
      const file = media[0]!;
      const form = await formFor(common, captionParams(post.message, options));
      form.append(plan.type, await file.blob(), uploadName(file, plan.type));
      sent = await api.call<TelegramMessage>(sendMethodFor[plan.type], form, {
        ...call,
        timeoutMs: this.#uploadTimeout(media),
      });
    } else {
      const form = await formFor(common, {});
      const items = plan.types.map((type, index) => ({
        type,
        media: `attach://file${index}`,
        ...(index === 0 ? captionParams(post.message, options) : {}),
      }));
      form.append('media', JSON.stringify(items));
      for (const [index, file] of media.entries()) {
        form.append(`file${index}`, await file.blob(), uploadName(file, plan.types[index]!));
      }
      const messages = await api.call<TelegramMessage[]>('sendMediaGroup', form, {
        ...call,
        timeoutMs: this.#uploadTimeout(media),
      });
      sent = messages[0]!;
    }
    return resultFor(sent, chat);
  }

  /**
   * Followers are the chat's member count (`getChatMemberCount`); the Bot API reports nothing
   * about a message's views or reactions to a bot, so there are no post metrics (contract section H).
   */
  async accountMetrics(
    account: PlatformAccount,
    context: PlatformCallContext,
  ): Promise<Partial<Record<AccountMetricName, number>>> {
    const chatId = account.platformAccountId;
    const count = await this.#api(account).call<number>(
      'getChatMemberCount',
      { chat_id: chatId },
      { chat: chatId, signal: context.signal },
    );
    return Number.isSafeInteger(count) && count >= 0 ? { followers: count } : {};
  }

  async verifyCredentials(
    account: PlatformAccount,
    context?: Pick<PublishContext, 'signal'>,
  ): Promise<AccountProfile> {
    const api = this.#api(account);
    const chatId = account.platformAccountId;
    const options = { chat: chatId, ...(context?.signal ? { signal: context.signal } : {}) };
    const me = await api.call<TelegramUser>('getMe', {}, options);
    const chat = await api.call<TelegramChat>('getChat', { chat_id: chatId }, options);
    if (chat.type !== 'private') {
      const member = await api.call<TelegramChatMember>(
        'getChatMember',
        { chat_id: chat.id, user_id: me.id },
        options,
      );
      const problem = membershipProblem(chat, member);
      if (problem) throw new PlatformError('target_unreachable', problem);
    }
    const name = chat.title ?? ([chat.first_name, chat.last_name].filter(Boolean).join(' ') || chatId);
    return { name, ...(chat.username ? { username: chat.username } : {}) };
  }

  #api(account: PlatformAccount): TelegramBotApi {
    const credentials = telegramCredentialsSchema.safeParse(account.credentials);
    if (!credentials.success) {
      throw new PlatformError(
        'credentials_invalid',
        `Account "${account.id}": credentials.botToken must be a bot token as BotFather issues it`,
      );
    }
    return new TelegramBotApi({
      apiUrl: this.#apiUrl,
      token: credentials.data.botToken,
      timeoutMs: this.#timeoutMs,
    });
  }

  #uploadTimeout(media: readonly MediaInfo[]): number {
    const bytes = media.reduce((sum, file) => sum + file.size, 0);
    return this.#timeoutMs + Math.ceil(bytes / 1_000_000) * 1000;
  }
}

function commonParams(chat: string, options: TelegramOptions): Record<string, unknown> {
  return {
    chat_id: chat,
    ...(options.disableNotification === undefined
      ? {}
      : { disable_notification: options.disableNotification }),
    ...(options.protectContent === undefined ? {} : { protect_content: options.protectContent }),
    ...(options.messageThreadId === undefined ? {} : { message_thread_id: options.messageThreadId }),
  };
}

function textParams(message: string, options: TelegramOptions): Record<string, unknown> {
  return {
    text: message,
    ...(options.parseMode ? { parse_mode: options.parseMode } : {}),
    ...(options.linkPreview === undefined
      ? {}
      : { link_preview_options: { is_disabled: !options.linkPreview } }),
  };
}

function captionParams(message: string, options: TelegramOptions): Record<string, unknown> {
  if (message === '') return {};
  return { caption: message, ...(options.parseMode ? { parse_mode: options.parseMode } : {}) };
}

async function formFor(...parts: Record<string, unknown>[]): Promise<FormData> {
  const form = new FormData();
  for (const part of parts) {
    // The Bot API takes objects (reply_parameters) in multipart requests as JSON-serialized strings.
    for (const [name, value] of Object.entries(part))
      form.append(name, typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value));
  }
  return form;
}

/** Telegram shows a document's file name to readers, so keep the uploaded one. */
function uploadName(file: MediaInfo, type: TelegramMediaType): string {
  return file.filename || `${type}`;
}

function resultFor(message: TelegramMessage, platformAccountId: string): PublishResult {
  const id = String(message.message_id);
  const handle = platformAccountId.startsWith('@') ? platformAccountId.slice(1) : undefined;
  const username = message.chat.username ?? handle;
  const linkable = message.chat.type === 'channel' || message.chat.type === 'supergroup';
  return { platformPostId: id, ...(linkable && username ? { url: `https://t.me/${username}/${id}` } : {}) };
}

function membershipProblem(chat: TelegramChat, member: TelegramChatMember): string | undefined {
  const name = chat.title ?? String(chat.id);
  if (member.status === 'left' || member.status === 'kicked')
    return `The bot is not a member of "${name}"; add it first`;
  if (chat.type === 'channel') {
    if (member.status === 'creator') return undefined;
    if (member.status !== 'administrator')
      return `The bot must be an administrator of the channel "${name}" to post`;
    if (member.can_post_messages === false)
      return `The bot is an administrator of "${name}" without the right to post messages`;
  }
  if (member.status === 'restricted' && member.can_send_messages === false) {
    return `The bot may not send messages in "${name}"`;
  }
  return undefined;
}
