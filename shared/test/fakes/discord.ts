import { randomBytes } from 'node:crypto';
import { type FakeResponse, FakeServer, type RecordedRequest } from './fake-server.ts';

/**
 * A fake Discord for webhooks: execute (JSON or multipart with `payload_json` + `files[n]`)
 * and get, with Discord's limits, error codes and bodies. Use `url` as DISCORD_API_URL.
 */
export interface FakeDiscordOptions {
  /** Per-file upload limit (Discord's default for servers without boosts: 10 MiB). */
  maxFileBytes?: number;
  /** All files of one request together. */
  maxRequestBytes?: number;
}

export interface FakeDiscordWebhook {
  id: string;
  token: string;
  name: string;
  avatar: string | null;
  channelId: string;
  guildId: string | null;
  threads: Set<string>;
}

export interface FakeDiscordAttachment {
  id: string;
  filename: string;
  description?: string;
  contentType: string;
  bytes: Buffer;
}

export interface FakeDiscordMessage {
  id: string;
  webhookId: string;
  /** The thread when posted into one, else the webhook's channel. */
  channelId: string;
  content: string;
  username?: string;
  avatarUrl?: string;
  attachments: FakeDiscordAttachment[];
}

const discordEpoch = 1_420_070_400_000n;
const maxContent = 2000;
const maxFiles = 10;

export class FakeDiscord {
  readonly server: FakeServer;
  readonly messages: FakeDiscordMessage[] = [];
  readonly webhooks = new Map<string, FakeDiscordWebhook>();
  /** Created at start, for tests that need just one. */
  readonly webhook: FakeDiscordWebhook;
  readonly maxFileBytes: number;
  readonly maxRequestBytes: number;
  #sequence = 0n;

  constructor(options: FakeDiscordOptions = {}) {
    this.maxFileBytes = options.maxFileBytes ?? 10 * 1024 * 1024;
    this.maxRequestBytes = options.maxRequestBytes ?? 25 * 1024 * 1024;
    this.server = new FakeServer({ maxBodyBytes: this.maxRequestBytes * 2 + 1024 * 1024 });
    const path = /^\/api(?:\/v\d+)?\/webhooks\/([^/]+)\/([^/]+)\/?$/;
    this.server.route('POST', path, (request, match) => this.#execute(request, match[1]!, match[2]!));
    this.server.route('GET', path, (_request, match) => this.#get(match[1]!, match[2]!));
    this.webhook = this.createWebhook();
  }

  get url(): string {
    return this.server.url;
  }

  env(): Record<string, string> {
    return { DISCORD_API_URL: this.url };
  }

  createWebhook(
    init: Partial<Omit<FakeDiscordWebhook, 'id' | 'token' | 'threads'>> = {},
  ): FakeDiscordWebhook {
    const webhook: FakeDiscordWebhook = {
      id: this.snowflake(),
      token: randomBytes(51).toString('base64url'),
      name: 'Captain Hook',
      avatar: randomBytes(16).toString('hex'),
      channelId: this.snowflake(),
      guildId: this.snowflake(),
      threads: new Set(),
      ...init,
    };
    this.webhooks.set(webhook.id, webhook);
    return webhook;
  }

  /** The URL Discord's "Copy Webhook URL" gives, on this fake. */
  webhookUrl(webhook: FakeDiscordWebhook = this.webhook): string {
    return `${this.url}/api/webhooks/${webhook.id}/${webhook.token}`;
  }

  createThread(webhook: FakeDiscordWebhook = this.webhook): string {
    const id = this.snowflake();
    webhook.threads.add(id);
    return id;
  }

  deleteWebhook(webhook: FakeDiscordWebhook = this.webhook): void {
    this.webhooks.delete(webhook.id);
  }

  /** Answer the next execute(s) with Discord's 429 body and headers. */
  rateLimitNext(options: { retryAfter?: number; global?: boolean; times?: number } = {}): void {
    const retryAfter = options.retryAfter ?? 0.05;
    this.server.inject({
      path: /\/webhooks\//,
      times: options.times ?? 1,
      status: 429,
      headers: {
        'retry-after': String(Math.ceil(retryAfter)),
        'x-ratelimit-limit': '5',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset-after': String(retryAfter),
        'x-ratelimit-scope': options.global ? 'global' : 'user',
        ...(options.global ? { 'x-ratelimit-global': 'true' } : {}),
      },
      json: {
        message: 'You are being rate limited.',
        retry_after: retryAfter,
        global: options.global ?? false,
      },
    });
  }

  /** Answer the next request(s) with a server error, as Discord or Cloudflare would. */
  failNext(status = 502, times = 1): void {
    this.server.inject({
      path: /\/webhooks\//,
      times,
      status,
      headers: { 'content-type': 'text/html' },
      text: `<html><body>${status} Bad Gateway</body></html>`,
    });
  }

  /** Execute requests received, successful or not. */
  executions(): RecordedRequest[] {
    return this.server.requests.filter((r) => r.method === 'POST');
  }

  snowflake(): string {
    return String(((BigInt(Date.now()) - discordEpoch) << 22n) | (this.#sequence++ & 0xfffn));
  }

  start(): Promise<FakeServer> {
    return this.server.start();
  }

  close(): Promise<void> {
    return this.server.close();
  }

  #authorize(id: string, token: string): FakeDiscordWebhook | FakeResponse {
    const webhook = this.webhooks.get(id);
    if (!webhook) return { status: 404, json: { message: 'Unknown Webhook', code: 10015 } };
    if (webhook.token !== token)
      return { status: 401, json: { message: 'Invalid Webhook Token', code: 50027 } };
    return webhook;
  }

  #get(id: string, token: string): FakeResponse {
    const webhook = this.#authorize(id, token);
    if (!('token' in webhook)) return webhook;
    return {
      json: {
        application_id: null,
        avatar: webhook.avatar,
        channel_id: webhook.channelId,
        guild_id: webhook.guildId,
        id: webhook.id,
        name: webhook.name,
        type: 1,
        token: webhook.token,
      },
    };
  }

  #execute(request: RecordedRequest, id: string, token: string): FakeResponse | Promise<FakeResponse> {
    const webhook = this.#authorize(id, token);
    if (!('token' in webhook)) return webhook;
    const threadId = request.query.get('thread_id');
    if (threadId !== null && !webhook.threads.has(threadId)) {
      return { status: 404, json: { message: 'Unknown Channel', code: 10003 } };
    }

    const parsed = parsePayload(request);
    if (!parsed.ok) return parsed.response;
    const { payload, files } = parsed;

    if (files.length > maxFiles)
      return formError('attachments', 'BASE_TYPE_MAX_LENGTH', `Must be ${maxFiles} or fewer in length.`);
    const total = files.reduce((sum, f) => sum + f.file.size, 0);
    if (files.some((f) => f.file.size > this.maxFileBytes) || total > this.maxRequestBytes) {
      return { status: 413, json: { message: 'Request entity too large', code: 40005 } };
    }
    const content = typeof payload.content === 'string' ? payload.content : '';
    if ([...content].length > maxContent) {
      return formError('content', 'BASE_TYPE_MAX_LENGTH', `Must be ${maxContent} or fewer in length.`);
    }
    const username = payload.username;
    if (username !== undefined) {
      if (typeof username !== 'string' || username.length < 1 || [...username].length > 80) {
        return formError('username', 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 80 in length.');
      }
      const forbidden = ['discord', 'clyde'].find((word) => username.toLowerCase().includes(word));
      if (forbidden)
        return formError('username', 'USERNAME_INVALID_CONTAINS', `Username cannot contain "${forbidden}"`);
    }
    if (content.trim() === '' && files.length === 0) {
      return { status: 400, json: { message: 'Cannot send an empty message', code: 50006 } };
    }

    const declared = Array.isArray(payload.attachments) ? (payload.attachments as AttachmentPayload[]) : [];
    // An attachment's description (its alt text) is at most 1024 characters.
    const longDescription = declared.findIndex(
      (a) => typeof a.description === 'string' && [...a.description].length > 1024,
    );
    if (longDescription >= 0) {
      return nestedFormError(
        ['attachments', String(longDescription), 'description'],
        'BASE_TYPE_MAX_LENGTH',
        'Must be 1024 or fewer in length.',
      );
    }
    const attachments: FakeDiscordAttachment[] = [];
    for (const { index, file } of files) {
      const meta = declared.find((a) => String(a.id) === String(index));
      attachments.push({
        id: this.snowflake(),
        filename: meta?.filename ?? file.name,
        ...(meta?.description ? { description: meta.description } : {}),
        contentType: file.type,
        bytes: Buffer.alloc(0),
      });
    }
    return this.#record(
      webhook,
      threadId,
      content,
      payload,
      attachments,
      files,
      request.query.get('wait') === 'true',
    );
  }

  async #recordBytes(attachments: FakeDiscordAttachment[], files: IndexedFile[]): Promise<void> {
    await Promise.all(
      files.map(async ({ file }, i) => {
        attachments[i]!.bytes = Buffer.from(await file.arrayBuffer());
      }),
    );
  }

  #record(
    webhook: FakeDiscordWebhook,
    threadId: string | null,
    content: string,
    payload: Record<string, unknown>,
    attachments: FakeDiscordAttachment[],
    files: IndexedFile[],
    wait: boolean,
  ): FakeResponse | Promise<FakeResponse> {
    const message: FakeDiscordMessage = {
      id: this.snowflake(),
      webhookId: webhook.id,
      channelId: threadId ?? webhook.channelId,
      content,
      ...(typeof payload.username === 'string' ? { username: payload.username } : {}),
      ...(typeof payload.avatar_url === 'string' ? { avatarUrl: payload.avatar_url } : {}),
      attachments,
    };
    this.messages.push(message);
    const answer = (): FakeResponse => (wait ? { json: messageJson(message, webhook) } : { status: 204 });
    return files.length ? this.#recordBytes(attachments, files).then(answer) : answer();
  }
}

interface AttachmentPayload {
  id?: unknown;
  filename?: string;
  description?: string;
}

interface IndexedFile {
  index: number;
  file: File;
}

/** Discord reads `payload_json` (multipart) or the JSON body; files come as `files[n]`. */
function parsePayload(
  request: RecordedRequest,
):
  | { ok: true; payload: Record<string, unknown>; files: IndexedFile[] }
  | { ok: false; response: FakeResponse } {
  const type = String(request.headers['content-type'] ?? '');
  const invalidJson = {
    ok: false as const,
    response: { status: 400, json: { message: 'The request body contains invalid JSON.', code: 50109 } },
  };
  if (type.includes('multipart/form-data')) {
    const fields = (request.body ?? {}) as Record<string, string>;
    let payload: Record<string, unknown> = {};
    if (fields.payload_json !== undefined) {
      try {
        payload = JSON.parse(fields.payload_json);
      } catch {
        return invalidJson;
      }
    } else {
      payload = { ...fields };
    }
    const files = Object.entries(request.files).map(([name, file], position) => {
      const match = name.match(/^files\[(\d+)\]$/);
      return { index: match ? Number(match[1]) : position, file };
    });
    return { ok: true, payload, files };
  }
  if (type.includes('application/json')) {
    if (request.body === undefined || typeof request.body !== 'object') return invalidJson;
    return { ok: true, payload: request.body as Record<string, unknown>, files: [] };
  }
  return {
    ok: false,
    response: { status: 400, json: { message: 'Cannot send an empty message', code: 50006 } },
  };
}

function formError(field: string, code: string, message: string): FakeResponse {
  return {
    status: 400,
    json: {
      code: 50035,
      errors: { [field]: { _errors: [{ code, message }] } },
      message: 'Invalid Form Body',
    },
  };
}

/** Discord's form error for a nested field: `errors.attachments.0.description._errors`. */
function nestedFormError(path: string[], code: string, message: string): FakeResponse {
  let errors: Record<string, unknown> = { _errors: [{ code, message }] };
  for (const key of [...path].reverse()) errors = { [key]: errors };
  return { status: 400, json: { code: 50035, errors, message: 'Invalid Form Body' } };
}

function messageJson(message: FakeDiscordMessage, webhook: FakeDiscordWebhook): unknown {
  return {
    id: message.id,
    type: 0,
    content: message.content,
    channel_id: message.channelId,
    author: {
      bot: true,
      id: webhook.id,
      username: message.username ?? webhook.name,
      avatar: webhook.avatar,
      discriminator: '0000',
    },
    attachments: message.attachments.map((a) => ({
      id: a.id,
      filename: a.filename,
      size: a.bytes.length,
      url: `https://cdn.discordapp.com/attachments/${message.channelId}/${a.id}/${a.filename}`,
      proxy_url: `https://media.discordapp.net/attachments/${message.channelId}/${a.id}/${a.filename}`,
      content_type: a.contentType,
      ...(a.description ? { description: a.description } : {}),
    })),
    embeds: [],
    mentions: [],
    mention_roles: [],
    pinned: false,
    mention_everyone: false,
    tts: false,
    timestamp: new Date().toISOString(),
    edited_timestamp: null,
    flags: 0,
    components: [],
    webhook_id: webhook.id,
  };
}

export async function startFakeDiscord(options: FakeDiscordOptions = {}): Promise<FakeDiscord> {
  const fake = new FakeDiscord(options);
  await fake.start();
  return fake;
}
