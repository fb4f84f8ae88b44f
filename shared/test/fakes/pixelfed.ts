import { type FakeResponse, FakeServer, type RecordedRequest } from './fake-server.ts';

export interface FakePixelfedUser {
  id?: string;
  username: string;
  displayName?: string;
  followersCount?: number;
}

export interface FakePixelfedOptions {
  tokens: Record<string, FakePixelfedUser>;
  /** `pixelfed.max_caption_length`; default 500. */
  maxCaptionLength?: number;
  /** `pixelfed.max_album_length`; default 4. */
  maxAlbumLength?: number;
  /** Polls answering 206 before an uploaded video is processed. */
  processingPolls?: number;
}

export interface FakePixelfedStatus {
  id: string;
  accountId: string;
  caption: string;
  mediaIds: string[];
  visibility: string;
  sensitive: boolean;
  spoilerText: string;
  inReplyToId: string | null;
  createdAt: string;
  likes: number;
  replies: number;
  shares: number;
  deleted?: boolean;
}

interface FakePixelfedMedia {
  id: string;
  accountId: string;
  mimeType: string;
  description: string | null;
  bytes: Buffer;
  pollsLeft: number;
  statusId: string | null;
}

type User = FakePixelfedUser & { id: string };
const mimeTypes = ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'video/mp4'];
const validation = (field: string, message: string): FakeResponse => ({
  status: 422,
  json: { message, errors: { [field]: [message] } },
});

/**
 * A Pixelfed server's Mastodon-compatible API as far as posting goes: `/api/v1/instance` with its
 * configuration (no v2), uploads on `/api/v2/media` (videos processed asynchronously), statuses
 * validated like Laravel does (caption `max:` in code points, links in full; media required
 * except for a reply; errors as `{ message, errors }`), a repeated `Idempotency-Key` refused,
 * account statuses, status counts and `verify_credentials`.
 */
export class FakePixelfed {
  readonly server = new FakeServer();
  readonly statuses: FakePixelfedStatus[] = [];
  readonly media = new Map<string, FakePixelfedMedia>();
  readonly #users = new Map<string, User>();
  readonly #seenKeys = new Set<string>();
  readonly #config: Required<Omit<FakePixelfedOptions, 'tokens'>>;
  #nextId = 700_000_000_000_000_000n;

  constructor(options: FakePixelfedOptions) {
    let n = 1;
    for (const [token, user] of Object.entries(options.tokens))
      this.#users.set(token, { ...user, id: user.id ?? String(n++) });
    this.#config = {
      maxCaptionLength: options.maxCaptionLength ?? 500,
      maxAlbumLength: options.maxAlbumLength ?? 4,
      processingPolls: options.processingPolls ?? 1,
    };
    this.#routes();
  }

  get url(): string {
    return this.server.url;
  }

  credentials(accessToken: string): Record<string, string> {
    return { instanceUrl: this.url, accessToken };
  }

  calls(path: string | RegExp, method?: string): RecordedRequest[] {
    return this.server.requests.filter(
      (r) =>
        (typeof path === 'string' ? r.path === path : path.test(r.path)) && (!method || r.method === method),
    );
  }

  /** The next matching requests answer Laravel's throttle 429 with Retry-After. */
  rateLimit(options: { times?: number; path?: RegExp; retryAfterSeconds?: number } = {}): void {
    this.server.inject({
      times: options.times ?? 1,
      ...(options.path ? { path: options.path } : {}),
      status: 429,
      headers: {
        'retry-after': String(options.retryAfterSeconds ?? 0),
        'x-ratelimit-limit': '30',
        'x-ratelimit-remaining': '0',
      },
      json: { message: 'Too Many Attempts.' },
    });
  }

  failWith(status: number, options: { times?: number; path?: RegExp } = {}): void {
    this.server.inject({
      times: options.times ?? 1,
      ...(options.path ? { path: options.path } : {}),
      status,
      headers: { 'content-type': 'text/html' },
      text: `<html><body>${status}</body></html>`,
    });
  }

  deleteStatus(id: string): void {
    const status = this.statuses.find((s) => s.id === id);
    if (status) status.deleted = true;
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
    s.route('GET', /^\/api\/v1\/instance$/, () => ({
      json: {
        uri: new URL(this.url).host,
        title: 'Fake Pixelfed',
        version: '3.5.3 (compatible; Pixelfed 0.12.5)',
        configuration: {
          statuses: {
            max_characters: this.#config.maxCaptionLength,
            max_media_attachments: this.#config.maxAlbumLength,
            characters_reserved_per_url: 23,
          },
          media_attachments: {
            supported_mime_types: mimeTypes,
            image_size_limit: 15_728_640,
            video_size_limit: 15_728_640,
          },
        },
      },
    }));
    s.route('GET', /^\/api\/v1\/accounts\/verify_credentials$/, (req) =>
      this.#authed(req, (u) => ({ json: this.#account(u) })),
    );
    s.route('POST', /^\/api\/v2\/media$/, (req) => this.#authed(req, (u) => this.#upload(req, u)));
    s.route('GET', /^\/api\/v1\/media\/([^/]+)$/, (req, m) => this.#authed(req, (u) => this.#poll(m[1]!, u)));
    s.route('POST', /^\/api\/v1\/statuses$/, (req) => this.#authed(req, (u) => this.#post(req, u)));
    s.route('GET', /^\/api\/v1\/statuses\/([^/]+)$/, (req, m) => this.#authed(req, () => this.#show(m[1]!)));
    s.route('GET', /^\/api\/v1\/accounts\/([^/]+)\/statuses$/, (req, m) =>
      this.#authed(req, () => this.#accountStatuses(req, m[1]!)),
    );
    s.route('GET', /.*/, () => ({ status: 404, json: { error: 'Record not found' } }));
    s.route('POST', /.*/, () => ({ status: 404, json: { error: 'Record not found' } }));
  }

  #authed(req: RecordedRequest, handler: (user: User) => FakeResponse | Promise<FakeResponse>) {
    const header = String(req.headers.authorization ?? '');
    const user = header.startsWith('Bearer ') ? this.#users.get(header.slice(7)) : undefined;
    if (!user) return { status: 401, json: { error: 'Unauthenticated.' } };
    return handler(user);
  }

  #account(user: User): Record<string, unknown> {
    return {
      id: user.id,
      username: user.username,
      acct: user.username,
      display_name: user.displayName ?? user.username,
      avatar: `${this.url}/storage/avatars/${user.id}.jpg`,
      followers_count: user.followersCount ?? 0,
      url: `${this.url}/${user.username}`,
    };
  }

  async #upload(req: RecordedRequest, user: User): Promise<FakeResponse> {
    const file = req.files.file;
    if (!file) return validation('file', 'The file field is required.');
    if (!mimeTypes.includes(file.type))
      return validation('file', 'The file must be a file of type: jpeg, png, gif, webp, mp4.');
    const video = file.type.startsWith('video/');
    const media: FakePixelfedMedia = {
      id: this.#id(),
      accountId: user.id,
      mimeType: file.type,
      description: ((req.body ?? {}) as Record<string, string>).description ?? null,
      bytes: Buffer.from(await file.arrayBuffer()),
      pollsLeft: video ? this.#config.processingPolls : 0,
      statusId: null,
    };
    this.media.set(media.id, media);
    return { status: video ? 202 : 200, json: this.#mediaJson(media) };
  }

  #poll(id: string, user: User): FakeResponse {
    const media = this.media.get(id);
    if (!media || media.accountId !== user.id) return { status: 404, json: { error: 'Record not found' } };
    if (media.pollsLeft > 0) {
      media.pollsLeft--;
      return { status: 206, json: this.#mediaJson(media) };
    }
    return { json: this.#mediaJson(media) };
  }

  #mediaJson(media: FakePixelfedMedia): Record<string, unknown> {
    const ready = media.pollsLeft === 0;
    return {
      id: media.id,
      type: media.mimeType.startsWith('video/') ? 'video' : 'image',
      url: ready ? `${this.url}/storage/m/${media.id}` : null,
      preview_url: `${this.url}/storage/m/${media.id}_thumb`,
      description: media.description,
    };
  }

  #post(req: RecordedRequest, user: User): FakeResponse {
    const key = req.headers['idempotency-key'];
    if (typeof key === 'string') {
      // Pixelfed does not replay an earlier answer for a key it has seen: it refuses the request.
      if (this.#seenKeys.has(`${user.id}:${key}`))
        return { status: 400, json: { error: 'Duplicate idempotency key.' } };
      this.#seenKeys.add(`${user.id}:${key}`);
    }
    const body = (req.body ?? {}) as Record<string, unknown>;
    const caption = typeof body.status === 'string' ? body.status : '';
    const mediaIds = (Array.isArray(body.media_ids) ? body.media_ids : []).map(String);
    const inReplyToId = typeof body.in_reply_to_id === 'string' ? body.in_reply_to_id : null;
    if ([...caption].length > this.#config.maxCaptionLength)
      return validation(
        'status',
        `The status must not be greater than ${this.#config.maxCaptionLength} characters.`,
      );
    if (!inReplyToId && mediaIds.length === 0)
      return validation('media_ids', 'The media ids field is required when in reply to id is not present.');
    if (mediaIds.length > this.#config.maxAlbumLength)
      return validation(
        'media_ids',
        `The media ids must not have more than ${this.#config.maxAlbumLength} items.`,
      );
    if (inReplyToId && !this.statuses.some((st) => st.id === inReplyToId && !st.deleted))
      return { status: 404, json: { error: 'Record not found' } };
    const attachments = mediaIds.map((id) => this.media.get(id));
    if (attachments.some((m) => !m || m.accountId !== user.id || m.statusId !== null))
      return validation('media_ids', 'The selected media ids is invalid.');
    if (attachments.some((m) => m!.pollsLeft > 0))
      return validation('media_ids', 'The media is still processing.');
    const visibility = typeof body.visibility === 'string' ? body.visibility : 'public';
    if (!['public', 'unlisted', 'private', 'direct'].includes(visibility))
      return validation('visibility', 'The selected visibility is invalid.');
    const status: FakePixelfedStatus = {
      id: this.#id(),
      accountId: user.id,
      caption,
      mediaIds,
      visibility,
      sensitive: body.sensitive === true,
      spoilerText: typeof body.spoiler_text === 'string' ? body.spoiler_text : '',
      inReplyToId,
      createdAt: new Date().toISOString(),
      likes: 0,
      replies: 0,
      shares: 0,
    };
    for (const m of attachments) m!.statusId = status.id;
    if (inReplyToId) this.statuses.find((st) => st.id === inReplyToId)!.replies++;
    this.statuses.push(status);
    return { json: this.#statusJson(status) };
  }

  #show(id: string): FakeResponse {
    const status = this.statuses.find((s) => s.id === id && !s.deleted);
    return status ? { json: this.#statusJson(status) } : { status: 404, json: { error: 'Record not found' } };
  }

  #accountStatuses(req: RecordedRequest, accountId: string): FakeResponse {
    const limit = Number(req.query.get('limit') ?? 20);
    const list = this.statuses
      .filter((s) => s.accountId === accountId && !s.deleted)
      .reverse()
      .slice(0, limit);
    return { json: list.map((s) => this.#statusJson(s)) };
  }

  #statusJson(status: FakePixelfedStatus): Record<string, unknown> {
    const user = [...this.#users.values()].find((u) => u.id === status.accountId)!;
    const escaped = status.caption.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    return {
      id: status.id,
      created_at: status.createdAt,
      in_reply_to_id: status.inReplyToId,
      content: escaped.replace(/(https?:\/\/\S+)/g, '<a href="$1">$1</a>'),
      content_text: status.caption,
      visibility: status.visibility,
      sensitive: status.sensitive,
      spoiler_text: status.spoilerText,
      uri: `${this.url}/p/${user.username}/${status.id}`,
      url: `${this.url}/p/${user.username}/${status.id}`,
      favourites_count: status.likes,
      replies_count: status.replies,
      reblogs_count: status.shares,
      media_attachments: status.mediaIds.map((id) => this.#mediaJson(this.media.get(id)!)),
      account: this.#account(user),
    };
  }

  #id(): string {
    this.#nextId += 1n;
    return String(this.#nextId);
  }
}

export function startFakePixelfed(options: FakePixelfedOptions): Promise<FakePixelfed> {
  return new FakePixelfed(options).start();
}
