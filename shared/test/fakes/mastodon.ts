import { type FakeResponse, FakeServer, type RecordedRequest } from './fake-server.ts';

export interface FakeMastodonUser {
  id?: string;
  username: string;
  displayName?: string;
  avatar?: string;
  /** Granted scopes; default read and write. */
  scopes?: string[];
  /** A disabled or suspended login: the API answers 403. */
  disabled?: boolean;
  followersCount?: number;
}

export interface FakeMastodonOptions {
  /** Bearer token → user. */
  tokens: Record<string, FakeMastodonUser>;
  maxCharacters?: number;
  maxMediaAttachments?: number;
  charactersReservedPerUrl?: number;
  imageSizeLimit?: number;
  videoSizeLimit?: number;
  descriptionLimit?: number;
  supportedMimeTypes?: string[];
  /** How many polls answer 206 before an asynchronously processed upload (video, GIF) is ready. */
  processingPolls?: number;
}

export interface FakeMediaAttachment {
  id: string;
  accountId: string;
  type: 'image' | 'gifv' | 'video';
  mimeType: string;
  size: number;
  description: string | null;
  bytes: Buffer;
  pollsLeft: number;
  statusId: string | null;
}

export interface FakeStatus {
  id: string;
  accountId: string;
  text: string;
  mediaIds: string[];
  visibility: string;
  spoilerText: string;
  sensitive: boolean;
  language: string | null;
  idempotencyKey: string | undefined;
  inReplyToId: string | null;
  /** Deleted by its author (`deleteStatus`): replies to it answer 404. */
  deleted?: boolean;
  /** Counts `GET /api/v1/statuses/:id` reports (contract section H); 0 unless a test sets them. */
  favourites?: number;
  reblogs?: number;
}

const unprocessable = (error: string): FakeResponse => ({ status: 422, json: { error } });

/**
 * A Mastodon server as far as posting goes: bearer tokens with scopes, instance limits in
 * /api/v2/instance, v2 media uploads with asynchronous processing (202, then 206 until ready),
 * statuses counted like StatusLengthValidator, and Idempotency-Key handling.
 */
export class FakeMastodon {
  readonly server = new FakeServer();
  readonly statuses: FakeStatus[] = [];
  readonly media = new Map<string, FakeMediaAttachment>();
  readonly #users = new Map<string, FakeMastodonUser & { id: string }>();
  readonly #idempotent = new Map<string, FakeStatus>();
  readonly #config: Required<Omit<FakeMastodonOptions, 'tokens'>>;
  #nextId = 110_000_000_000_000_000n;

  constructor(options: FakeMastodonOptions) {
    let n = 1;
    for (const [token, user] of Object.entries(options.tokens)) {
      this.#users.set(token, { ...user, id: user.id ?? String(n++) });
    }
    this.#config = {
      maxCharacters: options.maxCharacters ?? 500,
      maxMediaAttachments: options.maxMediaAttachments ?? 4,
      charactersReservedPerUrl: options.charactersReservedPerUrl ?? 23,
      imageSizeLimit: options.imageSizeLimit ?? 16_777_216,
      videoSizeLimit: options.videoSizeLimit ?? 103_809_024,
      descriptionLimit: options.descriptionLimit ?? 1500,
      supportedMimeTypes: options.supportedMimeTypes ?? [
        'image/jpeg',
        'image/png',
        'image/gif',
        'image/webp',
        'video/webm',
        'video/mp4',
        'video/quicktime',
      ],
      processingPolls: options.processingPolls ?? 2,
    };
    this.#routes();
  }

  get url(): string {
    return this.server.url;
  }

  /** Accounts-file credentials for a token this fake knows. */
  credentials(accessToken: string): Record<string, string> {
    return { instanceUrl: this.url, accessToken };
  }

  /** Requests to one path (method optional), in order. */
  calls(path: string | RegExp, method?: string): RecordedRequest[] {
    return this.server.requests.filter(
      (r) =>
        (typeof path === 'string' ? r.path === path : path.test(r.path)) && (!method || r.method === method),
    );
  }

  /** The next `times` matching requests answer 429 with Mastodon's X-RateLimit headers (reset as ISO 8601). */
  rateLimit(options: { times?: number; path?: RegExp; resetInMs?: number } = {}): void {
    this.server.inject({
      times: options.times ?? 1,
      ...(options.path ? { path: options.path } : {}),
      status: 429,
      headers: {
        'x-ratelimit-limit': '300',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': new Date(Date.now() + (options.resetInMs ?? 0)).toISOString(),
      },
      json: { error: 'Too many requests' },
    });
  }

  /** The next `times` matching requests fail the way a struggling instance behind nginx does. */
  failWith(status: number, options: { times?: number; path?: RegExp } = {}): void {
    this.server.inject({
      times: options.times ?? 1,
      ...(options.path ? { path: options.path } : {}),
      status,
      headers: { 'content-type': 'text/html' },
      text: `<html><head><title>${status}</title></head><body><center><h1>${status}</h1></center></body></html>`,
    });
  }

  async start(): Promise<this> {
    await this.server.start();
    return this;
  }

  close(): Promise<void> {
    return this.server.close();
  }

  #routes(): void {
    const s = this.server;
    s.route('GET', /^\/api\/v2\/instance$/, () => this.#instance());
    s.route('GET', /^\/api\/v1\/accounts\/verify_credentials$/, (req) =>
      this.#authed(req, 'read:accounts', (user) => ({ json: this.#account(user) })),
    );
    s.route('POST', /^\/api\/v2\/media$/, (req) =>
      this.#authed(req, 'write:media', (user) => this.#upload(req, user)),
    );
    s.route('GET', /^\/api\/v1\/media\/([^/]+)$/, (req, m) =>
      this.#authed(req, 'write:media', (user) => this.#poll(m[1]!, user)),
    );
    s.route('POST', /^\/api\/v1\/statuses$/, (req) =>
      this.#authed(req, 'write:statuses', (user) => this.#postStatus(req, user)),
    );
    s.route('GET', /^\/api\/v1\/statuses\/([^/]+)$/, (req, m) =>
      this.#authed(req, 'read:statuses', (user) => {
        const status = this.statuses.find((st) => st.id === m[1] && !st.deleted);
        return status
          ? { json: this.#statusJson(status, user) }
          : { status: 404, json: { error: 'Record not found' } };
      }),
    );
    s.route('GET', /.*/, () => ({ status: 404, json: { error: 'Record not found' } }));
    s.route('POST', /.*/, () => ({ status: 404, json: { error: 'Record not found' } }));
  }

  #instance(): FakeResponse {
    const c = this.#config;
    return {
      json: {
        domain: new URL(this.url).host,
        title: 'Fake Mastodon',
        version: '4.4.0',
        configuration: {
          urls: { streaming: this.url.replace(/^http/, 'ws') },
          statuses: {
            max_characters: c.maxCharacters,
            max_media_attachments: c.maxMediaAttachments,
            characters_reserved_per_url: c.charactersReservedPerUrl,
          },
          media_attachments: {
            supported_mime_types: c.supportedMimeTypes,
            description_limit: c.descriptionLimit,
            image_size_limit: c.imageSizeLimit,
            image_matrix_limit: 33_177_600,
            video_size_limit: c.videoSizeLimit,
            video_frame_rate_limit: 120,
            video_matrix_limit: 8_294_400,
          },
        },
      },
    };
  }

  #authed(
    req: RecordedRequest,
    scope: string,
    handler: (user: FakeMastodonUser & { id: string }) => FakeResponse | Promise<FakeResponse>,
  ): FakeResponse | Promise<FakeResponse> {
    const header = String(req.headers.authorization ?? '');
    const user = header.startsWith('Bearer ') ? this.#users.get(header.slice(7)) : undefined;
    if (!user) return { status: 401, json: { error: 'The access token is invalid' } };
    const scopes = user.scopes ?? ['read', 'write'];
    if (!scopes.includes(scope) && !scopes.includes(scope.split(':')[0]!)) {
      return { status: 403, json: { error: 'This action is outside the authorized scopes' } };
    }
    if (user.disabled) return { status: 403, json: { error: 'Your login is currently disabled' } };
    return handler(user);
  }

  #account(user: FakeMastodonUser & { id: string }): Record<string, unknown> {
    return {
      id: user.id,
      username: user.username,
      acct: user.username,
      display_name: user.displayName ?? '',
      avatar: user.avatar ?? `${this.url}/avatars/original/missing.png`,
      followers_count: user.followersCount ?? 0,
      url: `${this.url}/@${user.username}`,
    };
  }

  async #upload(req: RecordedRequest, user: FakeMastodonUser & { id: string }): Promise<FakeResponse> {
    const file = req.files.file;
    if (!file) return unprocessable("Validation failed: File can't be blank");
    const fields = (req.body ?? {}) as Record<string, string>;
    const description = fields.description ?? null;
    const mimeType = file.type;
    if (!this.#config.supportedMimeTypes.includes(mimeType)) {
      return unprocessable('Validation failed: File content type is invalid, File is invalid');
    }
    const isVideo = mimeType.startsWith('video/');
    const limit = isVideo ? this.#config.videoSizeLimit : this.#config.imageSizeLimit;
    if (file.size > limit) {
      return unprocessable(`Validation failed: File file size must be less than ${limit} Bytes`);
    }
    if (
      description !== null &&
      [...new Intl.Segmenter().segment(description)].length > this.#config.descriptionLimit
    ) {
      return unprocessable(
        `Validation failed: Description is too long (maximum is ${this.#config.descriptionLimit} characters)`,
      );
    }
    const async = isVideo || mimeType === 'image/gif';
    const attachment: FakeMediaAttachment = {
      id: this.#id(),
      accountId: user.id,
      type: isVideo ? 'video' : mimeType === 'image/gif' ? 'gifv' : 'image',
      mimeType,
      size: file.size,
      description,
      bytes: Buffer.from(await file.arrayBuffer()),
      pollsLeft: async ? this.#config.processingPolls : 0,
      statusId: null,
    };
    this.media.set(attachment.id, attachment);
    return { status: async ? 202 : 200, json: this.#attachmentJson(attachment) };
  }

  #poll(id: string, user: FakeMastodonUser & { id: string }): FakeResponse {
    const attachment = this.media.get(id);
    if (!attachment || attachment.accountId !== user.id)
      return { status: 404, json: { error: 'Record not found' } };
    if (attachment.pollsLeft > 0) {
      attachment.pollsLeft--;
      return { status: 206, json: this.#attachmentJson(attachment) };
    }
    return { status: 200, json: this.#attachmentJson(attachment) };
  }

  #attachmentJson(a: FakeMediaAttachment): Record<string, unknown> {
    const ready = a.pollsLeft === 0;
    const ext = a.type === 'image' ? (a.mimeType.split('/')[1] ?? 'bin') : 'mp4';
    return {
      id: a.id,
      type: a.type,
      url: ready ? `${this.url}/system/media_attachments/files/${a.id}/original/file.${ext}` : null,
      preview_url: `${this.url}/system/media_attachments/files/${a.id}/small/file.png`,
      remote_url: null,
      meta: {},
      description: a.description,
      blurhash: null,
    };
  }

  #postStatus(req: RecordedRequest, user: FakeMastodonUser & { id: string }): FakeResponse {
    const key = req.headers['idempotency-key'];
    const idempotencyKey = typeof key === 'string' ? key : undefined;
    if (idempotencyKey) {
      const earlier = this.#idempotent.get(`${user.id}:${idempotencyKey}`);
      if (earlier) return { json: this.#statusJson(earlier, user) };
    }
    const body = (req.body ?? {}) as Record<string, unknown>;
    const text = typeof body.status === 'string' ? body.status : '';
    const spoilerText = typeof body.spoiler_text === 'string' ? body.spoiler_text : '';
    const mediaIds = (Array.isArray(body.media_ids) ? body.media_ids : []).map(String);
    const visibility = typeof body.visibility === 'string' ? body.visibility : 'public';
    const inReplyToId =
      body.in_reply_to_id === undefined || body.in_reply_to_id === null || body.in_reply_to_id === ''
        ? null
        : String(body.in_reply_to_id);
    // StatusesController#set_thread: an unknown (or deleted) parent is a 404 with this wording.
    if (inReplyToId !== null && !this.statuses.some((st) => st.id === inReplyToId && !st.deleted)) {
      return {
        status: 404,
        json: { error: 'The post you are trying to reply to does not appear to exist.' },
      };
    }

    if (mediaIds.length > this.#config.maxMediaAttachments) {
      return unprocessable(`Cannot attach more than ${this.#config.maxMediaAttachments} files`);
    }
    const attachments = mediaIds.map((id) => this.media.get(id));
    if (attachments.some((a) => !a || a.accountId !== user.id || a.statusId !== null)) {
      return unprocessable(`Media ${mediaIds.join(', ')} not found or already attached to another post`);
    }
    if (attachments.some((a) => a!.pollsLeft > 0)) {
      return unprocessable('Cannot attach files that have not finished processing. Try again in a moment!');
    }
    if (attachments.some((a) => a!.type !== 'image') && attachments.length > 1) {
      return unprocessable('Cannot attach a video to a post that already contains images');
    }
    if (text.trim() === '' && mediaIds.length === 0)
      return unprocessable("Validation failed: Text can't be blank");
    if (!['public', 'unlisted', 'private', 'direct'].includes(visibility)) {
      return unprocessable('Validation failed: Visibility is not included in the list');
    }
    if (
      countLikeMastodon(text, spoilerText, this.#config.charactersReservedPerUrl) > this.#config.maxCharacters
    ) {
      return unprocessable(
        `Validation failed: Text character limit of ${this.#config.maxCharacters} exceeded`,
      );
    }
    const status: FakeStatus = {
      id: this.#id(),
      accountId: user.id,
      text,
      mediaIds,
      visibility,
      spoilerText,
      sensitive: body.sensitive === true || body.sensitive === 'true',
      language: typeof body.language === 'string' ? body.language : null,
      idempotencyKey,
      inReplyToId,
    };
    for (const a of attachments) a!.statusId = status.id;
    this.statuses.push(status);
    if (idempotencyKey) this.#idempotent.set(`${user.id}:${idempotencyKey}`, status);
    return { json: this.#statusJson(status, user) };
  }

  #statusJson(status: FakeStatus, user: FakeMastodonUser & { id: string }): Record<string, unknown> {
    return {
      id: status.id,
      created_at: new Date().toISOString(),
      visibility: status.visibility,
      sensitive: status.sensitive,
      spoiler_text: status.spoilerText,
      language: status.language,
      uri: `${this.url}/users/${user.username}/statuses/${status.id}`,
      url: `${this.url}/@${user.username}/${status.id}`,
      in_reply_to_id: status.inReplyToId,
      content: `<p>${status.text}</p>`,
      media_attachments: status.mediaIds.map((id) => this.#attachmentJson(this.media.get(id)!)),
      favourites_count: status.favourites ?? 0,
      reblogs_count: status.reblogs ?? 0,
      replies_count: this.statuses.filter((st) => st.inReplyToId === status.id && !st.deleted).length,
      account: this.#account(user),
    };
  }

  /** Deletes a status, as its author would. */
  deleteStatus(id: string): void {
    const status = this.statuses.find((st) => st.id === id);
    if (status) status.deleted = true;
  }

  #id(): string {
    this.#nextId += 1n;
    return String(this.#nextId);
  }
}

/**
 * StatusLengthValidator's count, written independently of the publisher's: spoiler plus text
 * in grapheme clusters, each http(s) URL as `perUrl` characters, "@user@domain" as "@user".
 */
function countLikeMastodon(text: string, spoiler: string, perUrl: number): number {
  const withoutUrls = text.replace(/https?:\/\/[^\s<>"]*[^\s<>".,;:!?'")]/giu, 'x'.repeat(perUrl));
  const withoutDomains = withoutUrls.replace(/(^|[^/\w])@(\w+(?:[\w.-]*\w)?)@[\w.-]*\w/gu, '$1@$2');
  return [...new Intl.Segmenter().segment(spoiler + withoutDomains)].length;
}

export function startFakeMastodon(options: FakeMastodonOptions): Promise<FakeMastodon> {
  return new FakeMastodon(options).start();
}
