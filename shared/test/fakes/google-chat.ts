import { randomBytes } from 'node:crypto';
import { type FakeResponse, FakeServer, type RecordedRequest } from './fake-server.ts';

/**
 * A fake Google Chat for incoming webhooks: `POST /v1/spaces/{space}/messages?key=…&token=…`
 * (spaces.messages.create as a webhook calls it) with Google's error format, the 32,000-byte
 * limit on text and cards, `thread.threadKey` / `thread.name` with `messageReplyOption`,
 * `requestId` idempotency (an existing id returns the message already created) and
 * RESOURCE_EXHAUSTED rate limits. Webhook answers carry the request's fields plus `name` and
 * `thread.name`, as documented.
 */
export interface FakeChatWebhook {
  space: string;
  key: string;
  token: string;
}

export interface FakeChatMessage {
  name: string;
  space: string;
  text: string | undefined;
  cardsV2: unknown;
  thread: string;
  requestId: string | null;
}

const maxBytes = 32_000;

export class FakeGoogleChat {
  readonly server = new FakeServer();
  readonly webhooks: FakeChatWebhook[] = [];
  readonly messages: FakeChatMessage[] = [];
  readonly webhook: FakeChatWebhook;
  /** threadKey → thread name, per space. */
  readonly #threadKeys = new Map<string, string>();

  constructor() {
    this.server.route('POST', /^\/v1\/spaces\/([^/]+)\/messages$/, (r, m) => this.#create(r, m[1]!));
    this.webhook = this.addWebhook();
  }

  get url(): string {
    return this.server.url;
  }

  addWebhook(space = `AAAA${randomBytes(8).toString('base64url')}`): FakeChatWebhook {
    const webhook = {
      space,
      key: `AIzaSy${randomBytes(24).toString('base64url').slice(0, 33)}`,
      token: randomBytes(32).toString('base64url'),
    };
    this.webhooks.push(webhook);
    return webhook;
  }

  removeWebhook(webhook: FakeChatWebhook): void {
    this.webhooks.splice(this.webhooks.indexOf(webhook), 1);
  }

  /** The URL "Add webhook" copies, on this fake. */
  webhookUrl(webhook: FakeChatWebhook = this.webhook): string {
    return `${this.url}/v1/spaces/${webhook.space}/messages?key=${webhook.key}&token=${encodeURIComponent(webhook.token)}`;
  }

  rateLimitNext(times = 1): void {
    this.server.inject({
      times,
      status: 429,
      json: {
        error: {
          code: 429,
          message: 'Resource has been exhausted (e.g. check quota).',
          status: 'RESOURCE_EXHAUSTED',
        },
      },
    });
  }

  posts(): RecordedRequest[] {
    return this.server.requests.filter((r) => r.method === 'POST');
  }

  start(): Promise<FakeServer> {
    return this.server.start();
  }
  close(): Promise<void> {
    return this.server.close();
  }

  #create(request: RecordedRequest, space: string): FakeResponse {
    const key = request.query.get('key');
    const webhook = this.webhooks.find((w) => w.space === space && w.key === key);
    if (!key || !webhook) {
      return googleError(
        400,
        'INVALID_ARGUMENT',
        'API key not valid. Please pass a valid API key.',
        'API_KEY_INVALID',
      );
    }
    if (request.query.get('token') !== webhook.token) {
      return googleError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.');
    }
    const requestId = request.query.get('requestId');
    const earlier = requestId
      ? this.messages.find((m) => m.space === space && m.requestId === requestId)
      : undefined;
    if (earlier) return { json: messageJson(earlier) };
    const body = request.body as
      | { text?: unknown; cardsV2?: unknown; thread?: { threadKey?: unknown; name?: unknown } }
      | undefined;
    if (!body || typeof body !== 'object')
      return googleError(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.');
    const text = typeof body.text === 'string' ? body.text : undefined;
    if (!text && !body.cardsV2) return googleError(400, 'INVALID_ARGUMENT', 'Message cannot be empty.');
    const size =
      Buffer.byteLength(text ?? '') + (body.cardsV2 ? Buffer.byteLength(JSON.stringify(body.cardsV2)) : 0);
    if (size > maxBytes)
      return googleError(400, 'INVALID_ARGUMENT', 'Message exceeds the maximum size of 32000 bytes.');
    const message: FakeChatMessage = {
      name: `spaces/${space}/messages/${randomBytes(8).toString('base64url')}.${randomBytes(8).toString('base64url')}`,
      space,
      text,
      cardsV2: body.cardsV2,
      thread: this.#thread(space, body.thread, request.query.get('messageReplyOption')),
      requestId,
    };
    this.messages.push(message);
    return { json: messageJson(message) };
  }

  /** The thread a message lands in: an existing one when asked to reply, else a new one. */
  #thread(
    space: string,
    thread: { threadKey?: unknown; name?: unknown } | undefined,
    option: string | null,
  ): string {
    const fresh = () => `spaces/${space}/threads/${randomBytes(8).toString('base64url')}`;
    const replying = option === 'REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD' || option === 'REPLY_MESSAGE_OR_FAIL';
    if (!replying || !thread) return fresh();
    if (typeof thread.name === 'string' && this.messages.some((m) => m.thread === thread.name))
      return thread.name;
    if (typeof thread.threadKey === 'string') {
      const key = `${space}\u0000${thread.threadKey}`;
      const known = this.#threadKeys.get(key) ?? fresh();
      this.#threadKeys.set(key, known);
      return known;
    }
    return fresh();
  }
}

function messageJson(message: FakeChatMessage): Record<string, unknown> {
  return {
    name: message.name,
    sender: { name: 'users/114022495153014004089', displayName: 'Postwave', type: 'BOT' },
    ...(message.text !== undefined ? { text: message.text } : {}),
    ...(message.cardsV2 ? { cardsV2: message.cardsV2 } : {}),
    thread: { name: message.thread },
    space: { name: `spaces/${message.space}`, type: 'ROOM', spaceType: 'SPACE' },
    createTime: new Date().toISOString(),
  };
}

function googleError(code: number, status: string, message: string, reason?: string): FakeResponse {
  return {
    status: code,
    json: {
      error: {
        code,
        message,
        status,
        ...(reason
          ? {
              details: [
                { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'googleapis.com' },
              ],
            }
          : {}),
      },
    },
  };
}

export async function startFakeGoogleChat(): Promise<FakeGoogleChat> {
  const fake = new FakeGoogleChat();
  await fake.start();
  return fake;
}
