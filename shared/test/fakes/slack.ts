import { randomBytes } from 'node:crypto';
import { type FakeResponse, FakeServer, type RecordedRequest } from './fake-server.ts';
import { type FakeSlackFile, SlackFiles } from './slack-files.ts';
import { SlackInstalls } from './slack-oauth.ts';

/**
 * A fake Slack Web API as a bot uses it (https://docs.slack.dev/reference/methods): bot tokens
 * with scopes (Bearer header or `token` parameter), form or query parameters, HTTP 200 with
 * `{ ok: false, error }` for refusals and 429 with Retry-After for rate limits; chat.postMessage,
 * chat.getPermalink, auth.test, conversations.info / list with cursors, the external file upload
 * (files.getUploadURLExternal → POST bytes → files.completeUploadExternal, files.info), and the
 * OAuth v2 install (consent page, oauth.v2.access with optional token rotation). Use `env()`.
 */
export interface FakeSlackChannel {
  id: string;
  name: string;
  isPrivate: boolean;
  isArchived: boolean;
  /** Whether the app's bot user was invited. */
  isMember: boolean;
}

export interface FakeSlackMessage {
  channel: string;
  ts: string;
  text: string;
  /** The `mrkdwn` parameter as sent ('true' / 'false'), undefined when absent. */
  mrkdwn: string | undefined;
  threadTs: string | undefined;
  unfurlLinks: string | undefined;
  files: FakeSlackFile[];
}

interface BotToken {
  scopes: string[];
  expiresAt?: number;
  revoked?: boolean;
}

export const slackDefaultScopes = ['chat:write', 'files:write', 'files:read', 'channels:read', 'groups:read'];

const scopeOf: Record<string, string> = {
  'chat.postMessage': 'chat:write',
  'files.getUploadURLExternal': 'files:write',
  'files.completeUploadExternal': 'files:write',
  'files.info': 'files:read',
};

export class FakeSlack {
  readonly server = new FakeServer();
  readonly clientId = '1111111111.2222222222';
  readonly clientSecret = 'fake-slack-client-secret';
  readonly team = { id: 'T0FAKE001', name: 'Fake Workspace', domain: 'fakeworkspace' };
  readonly botUserId = 'U0FAKEBOT';
  readonly channels = new Map<string, FakeSlackChannel>();
  readonly messages: FakeSlackMessage[] = [];
  readonly files: SlackFiles;
  /** The OAuth v2 install: consent answer and token rotation are set on it. */
  readonly installs: SlackInstalls;
  readonly #tokens = new Map<string, BotToken>();
  #clock = Math.floor(Date.now() / 1000);
  #sequence = 0;

  constructor() {
    this.files = new SlackFiles(() => `${this.url}/upload/v1`);
    this.installs = new SlackInstalls({
      clientId: this.clientId,
      clientSecret: this.clientSecret,
      team: this.team,
      botUserId: this.botUserId,
      issueToken: (options) => this.issueToken(options),
    });
    this.addChannel({ id: 'C0GENERAL1', name: 'general' });
    this.addChannel({ id: 'C0RANDOM01', name: 'random', isMember: false });
    this.addChannel({ id: 'G0SECRET01', name: 'secret-plans', isPrivate: true });
    this.addChannel({ id: 'C0OLDSTUFF', name: 'old-stuff', isArchived: true });
    const s = this.server;
    s.route('GET', /^\/oauth\/v2\/authorize$/, (r) => this.installs.authorize(r));
    s.route('POST', /^\/upload\/v1\/([A-Z0-9]+)$/, (r, m) => this.files.receive(m[1]!, r));
    for (const method of ['GET', 'POST']) {
      s.route(method, /^\/api\/([a-zA-Z0-9.]+)$/, (r, m) => this.#method(m[1]!, r));
    }
  }

  get url(): string {
    return this.server.url;
  }

  env(): Record<string, string> {
    return {
      SLACK_API_URL: `${this.url}/api`,
      SLACK_CLIENT_ID: this.clientId,
      SLACK_CLIENT_SECRET: this.clientSecret,
    };
  }

  addChannel(init: Partial<FakeSlackChannel> & { id: string; name: string }): FakeSlackChannel {
    const channel = { isPrivate: false, isArchived: false, isMember: true, ...init };
    this.channels.set(channel.id, channel);
    return channel;
  }

  /** A bot token as an install gives it (all default scopes unless `scopes` narrows them). */
  issueToken(options: { scopes?: string[]; expiresInMs?: number } = {}): string {
    const bare = `xoxb-${this.#digits()}-${randomBytes(18).toString('base64url')}`;
    // Rotating tokens carry Slack's `xoxe.` prefix.
    const token = options.expiresInMs === undefined ? bare : `xoxe.${bare}`;
    this.#tokens.set(token, {
      scopes: options.scopes ?? slackDefaultScopes,
      ...(options.expiresInMs !== undefined ? { expiresAt: Date.now() + options.expiresInMs } : {}),
    });
    return token;
  }

  revokeToken(token: string): void {
    const known = this.#tokens.get(token);
    if (known) known.revoked = true;
  }

  /** The app is uninstalled: every token issued so far is revoked. */
  revokeAllTokens(): void {
    for (const token of this.#tokens.values()) token.revoked = true;
  }

  /** Accounts-file credentials for a new token. */
  credentials(options: { scopes?: string[] } = {}): Record<string, string> {
    return { botToken: this.issueToken(options), teamId: this.team.id };
  }

  /** The next `times` Web API calls answer 429 with Retry-After, as Slack's rate limiter does. */
  rateLimitNext(options: { retryAfterSeconds?: number; times?: number; method?: string } = {}): void {
    this.server.inject({
      path: new RegExp(`^/api/${(options.method ?? '[a-zA-Z0-9.]+').replaceAll('.', '\\.')}$`),
      times: options.times ?? 1,
      status: 429,
      headers: { 'retry-after': String(options.retryAfterSeconds ?? 0) },
      json: { ok: false, error: 'ratelimited' },
    });
  }

  /** Web API calls made to `method`, in order. */
  calls(method: string): RecordedRequest[] {
    return this.server.requests.filter((r) => r.path === `/api/${method}`);
  }

  start(): Promise<FakeServer> {
    return this.server.start();
  }
  close(): Promise<void> {
    return this.server.close();
  }

  #digits(): string {
    return String(Math.floor(Math.random() * 1e12)).padStart(12, '0');
  }

  #ts(): string {
    this.#clock += 1;
    return `${this.#clock}.${String(++this.#sequence).padStart(6, '0')}`;
  }

  // --- Web API ---------------------------------------------------------------------------------

  #method(method: string, request: RecordedRequest): FakeResponse {
    const params = {
      ...Object.fromEntries(request.query),
      ...((request.body ?? {}) as Record<string, string>),
    };
    if (method === 'oauth.v2.access') return this.installs.access(request, params);
    const header = String(request.headers.authorization ?? '');
    const token = header.startsWith('Bearer ') ? header.slice(7) : params.token;
    if (!token) return fail('not_authed');
    const bot = this.#tokens.get(token);
    if (!bot) return fail('invalid_auth');
    if (bot.revoked) return fail('token_revoked');
    if (bot.expiresAt !== undefined && bot.expiresAt < Date.now()) return fail('token_expired');
    const needed = scopeOf[method];
    if (needed && !bot.scopes.includes(needed)) return missingScope(needed, bot.scopes);
    switch (method) {
      case 'auth.test':
        return ok({
          url: `https://${this.team.domain}.slack.com/`,
          team: this.team.name,
          user: 'postwave',
          team_id: this.team.id,
          user_id: this.botUserId,
          bot_id: 'B0FAKEBOT',
          is_enterprise_install: false,
        });
      case 'conversations.info':
        return this.#conversationInfo(params, bot);
      case 'conversations.list':
        return this.#conversationList(params, bot);
      case 'chat.postMessage':
        return this.#postMessage(params);
      case 'chat.getPermalink':
        return this.#permalink(params);
      case 'files.getUploadURLExternal':
        return this.files.reserve(params);
      case 'files.completeUploadExternal':
        return this.#complete(params);
      case 'files.info':
        return this.files.info(params.file);
      default:
        return { status: 404, json: { ok: false, error: 'unknown_method' } };
    }
  }

  #readable(channel: FakeSlackChannel, bot: BotToken): FakeResponse | undefined {
    const scope = channel.isPrivate ? 'groups:read' : 'channels:read';
    if (!bot.scopes.includes(scope)) return missingScope(scope, bot.scopes);
    if (channel.isPrivate && !channel.isMember) return fail('channel_not_found');
    return undefined;
  }

  #conversationInfo(params: Record<string, string>, bot: BotToken): FakeResponse {
    const channel = this.channels.get(params.channel ?? '');
    if (!channel) return fail('channel_not_found');
    return this.#readable(channel, bot) ?? ok({ channel: channelJson(channel) });
  }

  #conversationList(params: Record<string, string>, bot: BotToken): FakeResponse {
    const types = (params.types ?? 'public_channel').split(',');
    for (const type of types) {
      const scope = type === 'private_channel' ? 'groups:read' : 'channels:read';
      if (!bot.scopes.includes(scope)) return missingScope(scope, bot.scopes);
    }
    const all = [...this.channels.values()].filter(
      (c) =>
        types.includes(c.isPrivate ? 'private_channel' : 'public_channel') &&
        (!c.isPrivate || c.isMember) &&
        !(params.exclude_archived === 'true' && c.isArchived),
    );
    // Two channels a page, so clients must follow the cursor.
    const start = Number(params.cursor ? Buffer.from(params.cursor, 'base64url').toString() : '0');
    const page = all.slice(start, start + 2);
    const next = start + 2 < all.length ? Buffer.from(String(start + 2)).toString('base64url') : '';
    return ok({ channels: page.map(channelJson), response_metadata: { next_cursor: next } });
  }

  #postable(channelId: string | undefined): FakeSlackChannel | FakeResponse {
    const channel = this.channels.get(channelId ?? '');
    if (!channel || (channel.isPrivate && !channel.isMember)) return fail('channel_not_found');
    if (channel.isArchived) return fail('is_archived');
    if (!channel.isMember) return fail('not_in_channel');
    return channel;
  }

  #postMessage(params: Record<string, string>): FakeResponse {
    const channel = this.#postable(params.channel);
    if (!('id' in channel)) return channel;
    const text = params.text ?? '';
    if (text.trim() === '' && !params.blocks && !params.attachments) return fail('no_text');
    if ([...text].length > 40_000) return fail('msg_too_long');
    if (params.thread_ts && !this.messages.some((m) => m.ts === params.thread_ts && m.channel === channel.id))
      return fail('thread_not_found');
    const message = this.#record(channel.id, text, params, []);
    return ok({ channel: channel.id, ts: message.ts, message: { type: 'message', text, ts: message.ts } });
  }

  #record(
    channel: string,
    text: string,
    params: Record<string, string>,
    files: FakeSlackFile[],
  ): FakeSlackMessage {
    const message: FakeSlackMessage = {
      channel,
      ts: this.#ts(),
      text,
      mrkdwn: params.mrkdwn,
      threadTs: params.thread_ts,
      unfurlLinks: params.unfurl_links,
      files,
    };
    this.messages.push(message);
    return message;
  }

  #permalink(params: Record<string, string>): FakeResponse {
    const message = this.messages.find((m) => m.ts === params.message_ts && m.channel === params.channel);
    if (!message) return fail('message_not_found');
    return ok({
      channel: message.channel,
      permalink: `https://${this.team.domain}.slack.com/archives/${message.channel}/p${message.ts.replace('.', '')}`,
    });
  }

  #complete(params: Record<string, string>): FakeResponse {
    let entries: { id?: string; title?: string }[];
    try {
      entries = JSON.parse(params.files ?? '');
    } catch {
      return fail('invalid_arguments');
    }
    if (!Array.isArray(entries) || entries.length === 0) return fail('invalid_arguments');
    const files = this.files.complete(entries);
    if (!Array.isArray(files)) return files;
    if (!params.channel_id) return ok({ files: files.map((f) => ({ id: f.id, title: f.title })) });
    const channel = this.#postable(params.channel_id);
    if (!('id' in channel)) return channel;
    if ([...(params.initial_comment ?? '')].length > 40_000) return fail('msg_too_long');
    const message = this.#record(channel.id, params.initial_comment ?? '', params, files);
    for (const file of files)
      file.share = {
        visibility: channel.isPrivate ? 'private' : 'public',
        channel: channel.id,
        ts: message.ts,
      };
    // As Slack documents it: the answer names the files; the share appears in files.info.
    return ok({ files: files.map((f) => ({ id: f.id, title: f.title })) });
  }
}

function ok(body: Record<string, unknown>): FakeResponse {
  return { json: { ok: true, ...body } };
}

function fail(error: string, extra: Record<string, unknown> = {}): FakeResponse {
  return { json: { ok: false, error, ...extra } };
}

function missingScope(needed: string, provided: string[]): FakeResponse {
  return fail('missing_scope', { needed, provided: provided.join(',') });
}

function channelJson(channel: FakeSlackChannel): Record<string, unknown> {
  return {
    id: channel.id,
    name: channel.name,
    is_channel: !channel.isPrivate,
    is_group: false,
    is_im: false,
    is_private: channel.isPrivate,
    is_archived: channel.isArchived,
    is_member: channel.isMember,
    created: 1_600_000_000,
  };
}

export async function startFakeSlack(): Promise<FakeSlack> {
  const fake = new FakeSlack();
  await fake.start();
  return fake;
}
