import { type FakeResponse, FakeServer, type InjectedFailure, type RecordedRequest } from './fake-server.ts';
import { badRequest, looksLikeImage, parsedText, TelegramApiError } from './telegram-content.ts';
import {
  chatKind,
  chatShape,
  chatType,
  failure,
  kicked,
  type MediaType,
  mediaShape,
  type Params,
} from './telegram-shapes.ts';

export interface FakeTelegramBot {
  username: string;
  firstName?: string;
  /** The bot's user id; derived from the token when absent. */
  id?: number;
}

/** The bot's standing in a chat, which decides what Telegram answers. */
export type FakeBotStatus = 'creator' | 'administrator' | 'member' | 'left' | 'kicked';

export interface FakeTelegramChat {
  id: number;
  type?: 'channel' | 'supergroup' | 'group' | 'private';
  title?: string;
  username?: string;
  firstName?: string;
  /** Default `administrator`. */
  botStatus?: FakeBotStatus;
  /** Forum topic ids; `message_thread_id` must be one of them. */
  topics?: number[];
  /** What `getChatMemberCount` answers (default 1); tests change it between collections. */
  memberCount?: number;
}

export interface FakeTelegramOptions {
  /** Known bots by token, e.g. `{ '123:ABC': { username: 'postwave_bot' } }`. */
  bots: Record<string, FakeTelegramBot>;
  /** Known chats by how posts address them (`@handle` or the numeric id). */
  chats: Record<string, FakeTelegramChat>;
  /** Telegram's limits: 10 MB photos, 50 MB other files on api.telegram.org. */
  maxPhotoBytes?: number;
  maxFileBytes?: number;
}

export interface SentFile {
  /** The multipart field the file came in (`photo`, `file0`, ...). */
  field: string;
  filename: string;
  contentType: string;
  size: number;
  bytes: Buffer;
}

/** A message (or album) the fake accepted, in the words of the request. */
export interface SentTelegramMessage {
  method: string;
  bot: string;
  chatId: number;
  messageIds: number[];
  text?: string;
  caption?: string;
  parseMode?: string;
  disableNotification?: boolean;
  protectContent?: boolean;
  messageThreadId?: number;
  linkPreviewOptions?: { is_disabled?: boolean };
  /** The message this one replies to (`reply_parameters.message_id` or `reply_to_message_id`). */
  replyToMessageId?: number;
  /** `sendMediaGroup` items as sent (`type`, `media`, `caption`, ...). */
  media?: Record<string, unknown>[];
  files: SentFile[];
}

const singleMediaMethods: Record<string, MediaType> = {
  sendPhoto: 'photo',
  sendVideo: 'video',
  sendAnimation: 'animation',
  sendDocument: 'document',
};

/**
 * A faithful fake of the Telegram Bot API (https://core.telegram.org/bots/api): the token in
 * the path, chats and the bot's membership, Telegram's limits and error descriptions, JSON,
 * urlencoded and multipart bodies, and the real result shapes. Records what was sent.
 */
export class FakeTelegram {
  readonly server: FakeServer;
  readonly sent: SentTelegramMessage[] = [];
  readonly #bots: Record<string, FakeTelegramBot>;
  readonly #chats: Record<string, FakeTelegramChat>;
  readonly #maxPhotoBytes: number;
  readonly #maxFileBytes: number;
  readonly #nextMessageId = new Map<number, number>();
  /** `${chatId}:${messageId}` of messages deleted with `deleteMessage`. */
  readonly #deleted = new Set<string>();
  readonly #slow: { times: number; delayMs: number; method: string | undefined }[] = [];

  constructor(options: FakeTelegramOptions) {
    this.#bots = options.bots;
    this.#chats = options.chats;
    this.#maxPhotoBytes = options.maxPhotoBytes ?? 10 * 1000 * 1000;
    this.#maxFileBytes = options.maxFileBytes ?? 50 * 1000 * 1000;
    this.server = new FakeServer();
    const handler = (request: RecordedRequest, match: RegExpMatchArray) =>
      this.#handle(request, match[1]!, match[2]!);
    this.server.route('POST', /^\/bot([^/]*)\/([A-Za-z]+)$/, handler);
    this.server.route('GET', /^\/bot([^/]*)\/([A-Za-z]+)$/, handler);
  }

  get url(): string {
    return this.server.url;
  }

  /** Every request received, including failed and injected ones. */
  get requests(): RecordedRequest[] {
    return this.server.requests;
  }

  /** How many calls of `method` (or of any method) reached the fake. */
  requestCount(method?: string): number {
    return this.requests.filter((r) => !method || r.path.endsWith(`/${method}`)).length;
  }

  /** Answer the next matching request(s) with this instead; `method` narrows it to one Bot API method. */
  inject(failure: InjectedFailure & { method?: string }): this {
    const { method, ...rest } = failure;
    this.server.inject(method ? { path: new RegExp(`/${method}$`), ...rest } : rest);
    return this;
  }

  /** Telegram's flood control: `429 Too Many Requests: retry after N`. */
  injectRateLimit(retryAfterSeconds: number, init: { times?: number; method?: string } = {}): this {
    return this.inject({
      ...init,
      status: 429,
      json: failure(429, `Too Many Requests: retry after ${retryAfterSeconds}`, {
        retry_after: retryAfterSeconds,
      }),
    });
  }

  injectServerError(status = 502, init: { times?: number; method?: string; delayMs?: number } = {}): this {
    const description =
      status === 502 ? 'Bad Gateway' : status === 504 ? 'Gateway Timeout' : 'Internal Server Error';
    return this.inject({ ...init, status, json: failure(status, description) });
  }

  /** Answer the next matching call(s) for real (and record them), but only after `delayMs`: a slow platform. */
  answerSlowly(delayMs: number, init: { times?: number; method?: string } = {}): this {
    this.#slow.push({ delayMs, times: init.times ?? 1, method: init.method });
    return this;
  }

  clearInjected(): void {
    this.server.clearInjected();
  }

  async start(): Promise<this> {
    await this.server.start();
    return this;
  }

  close(): Promise<void> {
    return this.server.close();
  }

  async #handle(request: RecordedRequest, token: string, method: string): Promise<FakeResponse> {
    const slow = this.#slow.findIndex((s) => !s.method || s.method === method);
    if (slow < 0) return this.#answer(request, token, method);
    const entry = this.#slow[slow]!;
    if (--entry.times <= 0) this.#slow.splice(slow, 1);
    return { ...(await this.#answer(request, token, method)), delayMs: entry.delayMs };
  }

  async #answer(request: RecordedRequest, token: string, method: string): Promise<FakeResponse> {
    try {
      if (!/^\d+:[A-Za-z0-9_-]+$/.test(token)) throw new TelegramApiError(404, 'Not Found');
      const bot = this.#bots[token];
      if (!bot) throw new TelegramApiError(401, 'Unauthorized');
      const params: Params = {
        ...Object.fromEntries(request.query),
        ...(request.body as Params | undefined),
      };
      const uploads = await readUploads(request.files);
      const result = this.#call(method, params, uploads, {
        ...bot,
        id: bot.id ?? Number(token.split(':')[0]),
      });
      return { json: { ok: true, result } };
    } catch (error) {
      if (!(error instanceof TelegramApiError)) throw error;
      return { status: error.status, json: failure(error.status, error.message, error.parameters) };
    }
  }

  #call(
    method: string,
    params: Params,
    files: Record<string, SentFile>,
    bot: Required<Pick<FakeTelegramBot, 'id'>> & FakeTelegramBot,
  ): unknown {
    switch (method) {
      case 'getMe':
        return {
          id: bot.id,
          is_bot: true,
          first_name: bot.firstName ?? bot.username,
          username: bot.username,
          can_join_groups: true,
          can_read_all_group_messages: false,
          supports_inline_queries: false,
        };
      case 'getChat':
        return this.#getChat(params);
      case 'getChatMember':
        return this.#getChatMember(params, bot);
      case 'getChatMemberCount':
        return this.#getChatMemberCount(params);
      case 'sendMessage':
        return this.#sendMessage(params, bot.username);
      case 'sendMediaGroup':
        return this.#sendMediaGroup(params, files, bot.username);
      default: {
        const type = singleMediaMethods[method];
        if (!type) throw new TelegramApiError(404, 'Not Found');
        return this.#sendSingle(method, type, params, files, bot.username);
      }
    }
  }

  #findChat(chatId: unknown): FakeTelegramChat {
    if (chatId === undefined || chatId === '') throw badRequest('chat_id is empty');
    const key = String(chatId);
    const chat =
      this.#chats[key] ??
      Object.values(this.#chats).find(
        (c) =>
          String(c.id) === key ||
          (c.username !== undefined && `@${c.username}`.toLowerCase() === key.toLowerCase()),
      );
    if (!chat) throw badRequest('chat not found');
    return chat;
  }

  #getChat(params: Params): unknown {
    const chat = this.#findChat(params.chat_id);
    const status = chat.botStatus ?? 'administrator';
    // Public chats are visible to anyone; private ones only to members.
    if (!chat.username && status === 'kicked') throw kicked(chat);
    if (!chat.username && status === 'left') throw badRequest('chat not found');
    return { ...chatShape(chat), accent_color_id: 0, max_reaction_count: 11 };
  }

  /** The chat's member (subscriber) count, as for `getChat`: only a chat the bot can see. */
  #getChatMemberCount(params: Params): number {
    this.#getChat(params);
    return this.#findChat(params.chat_id).memberCount ?? 1;
  }

  /** Sets what `getChatMemberCount` answers for a chat (by how posts address it). */
  setMemberCount(chatId: string, count: number): void {
    this.#findChat(chatId).memberCount = count;
  }

  #getChatMember(params: Params, bot: { id: number; username: string; firstName?: string }): unknown {
    const chat = this.#findChat(params.chat_id);
    const user = {
      id: bot.id,
      is_bot: true,
      first_name: bot.firstName ?? bot.username,
      username: bot.username,
    };
    if (Number(params.user_id) !== bot.id) throw badRequest('user not found');
    const status = chat.botStatus ?? 'administrator';
    if (status === 'administrator') {
      return {
        status,
        user,
        can_be_edited: false,
        is_anonymous: false,
        can_manage_chat: true,
        can_post_messages: true,
        can_delete_messages: true,
      };
    }
    return { status, user };
  }

  /** The checks every send method makes before looking at content, in Telegram's order. */
  #target(params: Params): FakeTelegramChat {
    const chat = this.#findChat(params.chat_id);
    const status = chat.botStatus ?? 'administrator';
    if (status === 'kicked') throw kicked(chat);
    if (status === 'left')
      throw new TelegramApiError(403, `Forbidden: bot is not a member of the ${chatKind(chat)} chat`);
    if (chatType(chat) === 'channel' && status === 'member')
      throw badRequest('need administrator rights in the channel chat');
    const thread = params.message_thread_id;
    if (thread !== undefined && !chat.topics?.includes(Number(thread)))
      throw badRequest('message thread not found');
    const reply = this.#replyTo(params);
    if (reply !== undefined && !reply.allowWithout && !this.#exists(chat, reply.messageId))
      throw badRequest('message to be replied not found');
    return chat;
  }

  /** `reply_parameters` (a JSON object) or the older `reply_to_message_id`. */
  #replyTo(params: Params): { messageId: number; allowWithout: boolean } | undefined {
    const parameters = jsonParam(params.reply_parameters, 'reply_parameters') as Params | undefined;
    if (parameters !== undefined) {
      if (typeof parameters !== 'object' || parameters === null || parameters.message_id === undefined)
        throw badRequest("can't parse reply parameters JSON object");
      return {
        messageId: Number(parameters.message_id),
        allowWithout: parameters.allow_sending_without_reply === true,
      };
    }
    if (params.reply_to_message_id === undefined) return undefined;
    return {
      messageId: Number(params.reply_to_message_id),
      allowWithout:
        params.allow_sending_without_reply === true || params.allow_sending_without_reply === 'true',
    };
  }

  #exists(chat: FakeTelegramChat, messageId: number): boolean {
    return (
      Number.isInteger(messageId) &&
      messageId > 0 &&
      messageId <= (this.#nextMessageId.get(chat.id) ?? 0) &&
      !this.#deleted.has(`${chat.id}:${messageId}`)
    );
  }

  /** Deletes a message, as a chat admin would: replies to it are then refused. */
  deleteMessage(chatId: number, messageId: number): void {
    this.#deleted.add(`${chatId}:${messageId}`);
  }

  #sendMessage(params: Params, bot: string): unknown {
    const chat = this.#target(params);
    const text = params.text === undefined ? '' : String(params.text);
    const visible = parsedText(text, params.parse_mode);
    if (visible.trim() === '') throw badRequest('message text is empty');
    if (visible.length > 4096) throw badRequest('message is too long');
    const linkPreviewOptions = jsonParam(params.link_preview_options, 'link_preview_options') as
      | { is_disabled?: boolean }
      | undefined;
    const message = this.#message(chat, { text: visible });
    this.#record('sendMessage', bot, chat, params, [message.message_id], [], {
      text,
      ...(linkPreviewOptions ? { linkPreviewOptions } : {}),
    });
    return message;
  }

  #sendSingle(
    method: string,
    type: MediaType,
    params: Params,
    files: Record<string, SentFile>,
    bot: string,
  ): unknown {
    const chat = this.#target(params);
    const file = files[type];
    if (!file) {
      if (params[type] !== undefined) throw badRequest('wrong file identifier/HTTP URL specified');
      throw badRequest(`there is no ${type} in the request`);
    }
    const caption = this.#caption(params.caption, params.parse_mode, 'message caption is too long');
    const sentFile = this.#checkFile(type, file);
    const message = this.#message(chat, {
      ...mediaShape(type, sentFile),
      ...(caption === undefined ? {} : { caption }),
    });
    this.#record(method, bot, chat, params, [message.message_id], [sentFile], captionRecord(params));
    return message;
  }

  #sendMediaGroup(params: Params, files: Record<string, SentFile>, bot: string): unknown {
    const chat = this.#target(params);
    const items = jsonParam(params.media, 'media');
    if (!Array.isArray(items) || items.length === 0) throw badRequest('parameter "media" is required');
    if (items.length > 10) throw badRequest('too many messages to send as an album');
    if (items.length < 2) throw badRequest('media group must contain at least 2 items');
    const types = items.map((item: Params) => String(item.type));
    for (const type of types) {
      if (!['photo', 'video', 'document', 'audio'].includes(type))
        throw badRequest(`can't use media of type "${type}" in a media group`);
    }
    if (types.includes('document') && types.some((t) => t !== 'document')) {
      throw badRequest("document can't be mixed with other media types");
    }
    const sentFiles = items.map((item: Params) => {
      const ref = String(item.media ?? '');
      const part = ref.startsWith('attach://') ? files[ref.slice('attach://'.length)] : undefined;
      if (!part) throw badRequest('wrong file identifier/HTTP URL specified');
      this.#caption(item.caption, item.parse_mode, 'MEDIA_CAPTION_TOO_LONG');
      return this.#checkFile(String(item.type) as MediaType, part);
    });
    const groupId = String(Date.now()) + String(this.sent.length);
    const messages = items.map((item: Params, index: number) => {
      const caption =
        item.caption === undefined ? undefined : parsedText(String(item.caption), item.parse_mode);
      return this.#message(chat, {
        media_group_id: groupId,
        ...mediaShape(types[index] as MediaType, sentFiles[index]!),
        ...(caption ? { caption } : {}),
      });
    });
    this.#record(
      'sendMediaGroup',
      bot,
      chat,
      params,
      messages.map((m) => m.message_id),
      sentFiles,
      {
        media: items,
        ...(typeof items[0]?.caption === 'string' ? { caption: items[0].caption } : {}),
        ...(typeof items[0]?.parse_mode === 'string' ? { parseMode: items[0].parse_mode } : {}),
      },
    );
    return messages;
  }

  #caption(value: unknown, parseMode: unknown, tooLong: string): string | undefined {
    if (value === undefined) return undefined;
    const visible = parsedText(String(value), parseMode);
    if (visible.length > 1024) throw badRequest(tooLong);
    return visible;
  }

  #checkFile(type: MediaType, file: SentFile): SentFile {
    if (file.size === 0) throw badRequest('file must be non-empty');
    if (file.size > this.#maxFileBytes) throw new TelegramApiError(413, 'Request Entity Too Large');
    if (type === 'photo') {
      if (file.size > this.#maxPhotoBytes) throw badRequest('file is too big');
      if (!looksLikeImage(file.bytes)) throw badRequest('IMAGE_PROCESS_FAILED');
    }
    return file;
  }

  #message(chat: FakeTelegramChat, content: Params): { message_id: number } & Params {
    const id = (this.#nextMessageId.get(chat.id) ?? 0) + 1;
    this.#nextMessageId.set(chat.id, id);
    const shape = chatShape(chat);
    const sender = chatType(chat) === 'channel' ? { sender_chat: shape } : {};
    return { message_id: id, ...sender, chat: shape, date: Math.floor(Date.now() / 1000), ...content };
  }

  #record(
    method: string,
    bot: string,
    chat: FakeTelegramChat,
    params: Params,
    messageIds: number[],
    files: SentFile[],
    extra: Partial<SentTelegramMessage>,
  ): void {
    this.sent.push({
      method,
      bot,
      chatId: chat.id,
      messageIds,
      ...(typeof params.parse_mode === 'string' && params.parse_mode ? { parseMode: params.parse_mode } : {}),
      ...optionalBool('disableNotification', params.disable_notification),
      ...optionalBool('protectContent', params.protect_content),
      ...(params.message_thread_id === undefined
        ? {}
        : { messageThreadId: Number(params.message_thread_id) }),
      ...(this.#replyTo(params) ? { replyToMessageId: this.#replyTo(params)!.messageId } : {}),
      files,
      ...extra,
    });
  }
}

/** Starts a fake Bot API on 127.0.0.1; point TELEGRAM_API_URL (or the publisher's apiUrl) at `url`. */
export async function startFakeTelegram(options: FakeTelegramOptions): Promise<FakeTelegram> {
  return new FakeTelegram(options).start();
}

async function readUploads(files: Record<string, File>): Promise<Record<string, SentFile>> {
  const entries = await Promise.all(
    Object.entries(files).map(async ([field, file]) => {
      const bytes = Buffer.from(await file.arrayBuffer());
      return [
        field,
        { field, filename: file.name, contentType: file.type, size: bytes.length, bytes },
      ] as const;
    }),
  );
  return Object.fromEntries(entries);
}

function captionRecord(params: Params): Partial<SentTelegramMessage> {
  return params.caption === undefined ? {} : { caption: String(params.caption) };
}

function optionalBool<K extends string>(key: K, value: unknown): Partial<Record<K, boolean>> {
  if (value === undefined) return {};
  return { [key]: value === true || value === 'true' } as Partial<Record<K, boolean>>;
}

/** JSON-serialized parameters arrive as strings in multipart and urlencoded bodies, as objects in JSON. */
function jsonParam(value: unknown, name: string): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    throw badRequest(`can't parse ${name} JSON object`);
  }
}
