import { randomBytes } from 'node:crypto';
import { type FakeResponse, FakeServer, type RecordedRequest } from './fake-server.ts';
import { AuthorizationCodes, fetchMedia } from './meta-graph.ts';

/**
 * A fake of Pinterest API v5 as documented: the consent page (`/oauth/`), `POST /v5/oauth/token`
 * (HTTP Basic app credentials; codes; continuous refresh: every refresh answers a new refresh
 * token and the spent one stops working), `GET /v5/user_account`, boards and sections (paged
 * with `bookmark`), `POST /v5/pins` (image_url, multiple_image_urls, video_id; title 100,
 * description 800, alt_text 500, link), a board's pins, and video media (`POST /v5/media` → a
 * presigned multipart upload → `GET /v5/media/{id}` registered / processing / succeeded | failed).
 * Errors are `{ code, message }`; every answer carries `x-ratelimit-*` headers.
 */
export interface FakePinterestOptions {
  appId?: string;
  appSecret?: string;
  /** Access token lifetime (Pinterest's: 30 days). */
  accessTokenTtlSeconds?: number;
  /** Media status checks a video stays `processing`. */
  processingPolls?: number;
  /** Requests per window before 429 (default: generous). */
  rateLimit?: number;
}

export interface FakePinterestBoard {
  id: string;
  name: string;
  privacy: 'PUBLIC' | 'PROTECTED' | 'SECRET';
  sections: { id: string; name: string }[];
}

export interface FakePin {
  id: string;
  boardId: string;
  boardSectionId?: string;
  title?: string;
  description?: string;
  link?: string;
  altText?: string;
  sourceType: string;
  /** What Pinterest downloaded (images), or the video media id. */
  images: { url: string; bytes: number; contentType: string }[];
  mediaId?: string;
  createdAt: string;
}

export interface FakePinterestMedia {
  id: string;
  status: 'registered' | 'processing' | 'succeeded' | 'failed';
  uploadKey: string;
  bytes?: number;
  contentType?: string;
  pollsLeft: number;
}

interface Token {
  scopes: string[];
  expiresAt: number;
  valid: boolean;
}

const fail = (status: number, code: number, message: string): FakeResponse => ({
  status,
  json: { code, message },
});

export class FakePinterest {
  readonly server = new FakeServer({ maxBodyBytes: 50 * 1024 * 1024 });
  readonly appId: string;
  readonly appSecret: string;
  readonly user = {
    id: '1088237553749384123',
    username: 'fakepinner',
    profileImage: 'https://i.pinimg.example/75x75_RS/fake.jpg',
    accountType: 'BUSINESS',
    businessName: 'Fake Pins',
  };
  readonly boards: FakePinterestBoard[] = [
    {
      id: '549755885175',
      name: 'Recipes',
      privacy: 'PUBLIC',
      sections: [
        { id: '5027629787972154693', name: 'Desserts' },
        { id: '5027629787972154694', name: 'Mains' },
      ],
    },
    { id: '549755885176', name: 'Travel', privacy: 'PUBLIC', sections: [] },
    { id: '549755885177', name: 'Drafts', privacy: 'SECRET', sections: [] },
  ];
  readonly pins: FakePin[] = [];
  readonly media = new Map<string, FakePinterestMedia>();
  accessTokenTtlSeconds: number;
  processingPolls: number;
  rateLimit: number;
  consent: 'approve' | 'deny' = 'approve';
  /** The next uploaded video fails processing. */
  failNextVideo = false;
  /** The next pin is created but its answer is lost (the connection drops). */
  losePinAnswer = false;
  /** Refreshes refused (a spent or revoked refresh token). */
  refusedRefreshes = 0;
  readonly #access = new Map<string, Token>();
  readonly #refresh = new Map<string, Token>();
  readonly #codes = new AuthorizationCodes<{ redirectUri: string; scopes: string[] }>();
  #window = { start: Date.now(), used: 0 };

  constructor(options: FakePinterestOptions = {}) {
    this.appId = options.appId ?? '1500000';
    this.appSecret = options.appSecret ?? 'fake-pinterest-app-secret';
    this.accessTokenTtlSeconds = options.accessTokenTtlSeconds ?? 30 * 86_400;
    this.processingPolls = options.processingPolls ?? 1;
    this.rateLimit = options.rateLimit ?? 1000;
    const api =
      (handler: (req: RecordedRequest, m: RegExpMatchArray) => FakeResponse | Promise<FakeResponse>) =>
      async (req: RecordedRequest, m: RegExpMatchArray) =>
        this.#limited(await handler(req, m));
    this.server
      .route('GET', /^\/oauth\/?$/, (req) => this.#authorize(req))
      .route('POST', /^\/v5\/oauth\/token$/, (req) => this.#token(req))
      .route(
        'GET',
        /^\/v5\/user_account$/,
        api((req) => this.#userAccount(req)),
      )
      .route(
        'GET',
        /^\/v5\/boards$/,
        api((req) => this.#boards(req)),
      )
      .route(
        'GET',
        /^\/v5\/boards\/(\w+)$/,
        api((req, m) => this.#board(req, m[1]!)),
      )
      .route(
        'GET',
        /^\/v5\/boards\/(\w+)\/sections$/,
        api((req, m) => this.#sections(req, m[1]!)),
      )
      .route(
        'GET',
        /^\/v5\/boards\/(\w+)\/pins$/,
        api((req, m) => this.#boardPins(req, m[1]!)),
      )
      .route(
        'POST',
        /^\/v5\/pins$/,
        api((req) => this.#createPin(req)),
      )
      .route(
        'POST',
        /^\/v5\/media$/,
        api((req) => this.#registerMedia(req)),
      )
      .route(
        'GET',
        /^\/v5\/media\/(\d+)$/,
        api((req, m) => this.#mediaStatus(req, m[1]!)),
      )
      .route('POST', /^\/pinterest-media-upload\/?$/, (req) => this.#upload(req));
  }

  get url(): string {
    return this.server.url;
  }

  get requests(): RecordedRequest[] {
    return this.server.requests;
  }

  async start(): Promise<this> {
    await this.server.start();
    return this;
  }

  close(): Promise<void> {
    return this.server.close();
  }

  env(): Record<string, string> {
    return {
      PINTEREST_API_URL: this.url,
      PINTEREST_OAUTH_AUTHORIZE_URL: `${this.url}/oauth/`,
      PINTEREST_APP_ID: this.appId,
      PINTEREST_APP_SECRET: this.appSecret,
    };
  }

  /** Accounts-file credentials of the login, as the sign-in would have stored them. */
  credentials(options: { accessTtlSeconds?: number } = {}): Record<string, string> {
    const grant = this.#issue(
      ['boards:read', 'pins:read', 'pins:write', 'user_accounts:read'],
      options.accessTtlSeconds,
    );
    return {
      accessToken: grant.access_token,
      refreshToken: grant.refresh_token,
      expiresAt: new Date(Date.now() + grant.expires_in * 1000).toISOString(),
      userId: this.user.id,
    };
  }

  /** The user disconnected the app: every token stops working. */
  revokeAll(): void {
    for (const token of [...this.#access.values(), ...this.#refresh.values()]) token.valid = false;
  }

  calls(path: string | RegExp): RecordedRequest[] {
    return this.requests.filter((r) => (typeof path === 'string' ? r.path === path : path.test(r.path)));
  }

  #issue(scopes: string[], ttlSeconds = this.accessTokenTtlSeconds) {
    const access = `pina_${randomBytes(30).toString('base64url')}`;
    const refresh = `pinr.${randomBytes(30).toString('base64url')}`;
    const now = Date.now();
    this.#access.set(access, { scopes, expiresAt: now + ttlSeconds * 1000, valid: true });
    this.#refresh.set(refresh, { scopes, expiresAt: now + 60 * 86_400_000, valid: true });
    return {
      access_token: access,
      refresh_token: refresh,
      response_type: 'authorization_code',
      token_type: 'bearer',
      expires_in: ttlSeconds,
      refresh_token_expires_in: 60 * 86_400,
      refresh_token_expires_at: Math.floor(now / 1000) + 60 * 86_400,
      scope: scopes.join(','),
    };
  }

  #limited(response: FakeResponse): FakeResponse {
    const now = Date.now();
    if (now - this.#window.start > 60_000) this.#window = { start: now, used: 0 };
    this.#window.used++;
    const reset = Math.max(1, Math.ceil((this.#window.start + 60_000 - now) / 1000));
    const headers = {
      'x-ratelimit-limit': String(this.rateLimit),
      'x-ratelimit-remaining': String(Math.max(0, this.rateLimit - this.#window.used)),
      'x-ratelimit-reset': String(reset),
    };
    if (this.#window.used > this.rateLimit)
      return { ...fail(429, 8, 'You have exceeded your rate limit. Try again later.'), headers };
    return { ...response, headers: { ...headers, ...response.headers } };
  }

  #authorize(req: RecordedRequest): FakeResponse {
    const q = req.query;
    if (q.get('client_id') !== this.appId) return { status: 400, text: 'Invalid client_id' };
    const redirectUri = q.get('redirect_uri');
    if (!redirectUri || q.get('response_type') !== 'code') return { status: 400, text: 'Invalid request' };
    const back = new URL(redirectUri);
    back.searchParams.set('state', q.get('state') ?? '');
    if (this.consent === 'deny') back.searchParams.set('error', 'access_denied');
    else {
      const code = randomBytes(20).toString('hex');
      this.#codes.issue(code, { redirectUri, scopes: (q.get('scope') ?? '').split(',').filter(Boolean) });
      back.searchParams.set('code', code);
    }
    return { status: 302, headers: { location: back.toString() } };
  }

  #token(req: RecordedRequest): FakeResponse {
    const basic = String(req.headers.authorization ?? '');
    const [id, secret] = basic.startsWith('Basic ')
      ? Buffer.from(basic.slice(6), 'base64').toString().split(':')
      : [];
    if (id !== this.appId || secret !== this.appSecret) return fail(401, 2, 'Authentication failed.');
    const form = (req.body ?? {}) as Record<string, string>;
    if (form.grant_type === 'authorization_code') {
      const redeemed = this.#codes.redeem(form.code, form.redirect_uri);
      if ('problem' in redeemed) return fail(400, 1, 'Invalid authorization code');
      return { json: this.#issue(redeemed.grant.scopes) };
    }
    if (form.grant_type === 'refresh_token') {
      const token = this.#refresh.get(form.refresh_token ?? '');
      if (!token?.valid || token.expiresAt < Date.now()) {
        this.refusedRefreshes++;
        return fail(400, 1, 'Invalid refresh token');
      }
      // Continuous refresh: a new refresh token, the spent one no longer works.
      token.valid = false;
      return { json: { ...this.#issue(token.scopes), response_type: 'refresh_token' } };
    }
    return fail(400, 1, 'Unsupported grant_type');
  }

  #auth(req: RecordedRequest, scope: string): Token | FakeResponse {
    const header = String(req.headers.authorization ?? '');
    const token = header.startsWith('Bearer ') ? this.#access.get(header.slice(7)) : undefined;
    if (!token?.valid || token.expiresAt <= Date.now()) return fail(401, 2, 'Authentication failed.');
    if (!token.scopes.includes(scope))
      return fail(403, 29, `You are not permitted to access that resource. Missing scope ${scope}`);
    return token;
  }

  #userAccount(req: RecordedRequest): FakeResponse {
    const token = this.#auth(req, 'user_accounts:read');
    if (!('scopes' in token)) return token;
    return {
      json: {
        account_type: this.user.accountType,
        id: this.user.id,
        profile_image: this.user.profileImage,
        website_url: 'https://fake.example',
        username: this.user.username,
        business_name: this.user.businessName,
        board_count: this.boards.length,
        pin_count: this.pins.length,
      },
    };
  }

  #boardJson(board: FakePinterestBoard) {
    return {
      id: board.id,
      name: board.name,
      description: '',
      owner: { username: this.user.username },
      privacy: board.privacy,
      pin_count: this.pins.filter((p) => p.boardId === board.id).length,
    };
  }

  /** One page of a list; `bookmark` is the next offset. */
  #page<T>(req: RecordedRequest, items: T[]): FakeResponse {
    const size = Math.min(250, Number(req.query.get('page_size') ?? 25) || 25);
    const offset = Number(req.query.get('bookmark') ?? 0) || 0;
    const next = offset + size < items.length ? String(offset + size) : null;
    return { json: { items: items.slice(offset, offset + size), bookmark: next } };
  }

  #boards(req: RecordedRequest): FakeResponse {
    const token = this.#auth(req, 'boards:read');
    if (!('scopes' in token)) return token;
    return this.#page(
      req,
      this.boards.map((b) => this.#boardJson(b)),
    );
  }

  #findBoard(id: string): FakePinterestBoard | undefined {
    return this.boards.find((b) => b.id === id);
  }

  #board(req: RecordedRequest, id: string): FakeResponse {
    const token = this.#auth(req, 'boards:read');
    if (!('scopes' in token)) return token;
    const board = this.#findBoard(id);
    return board ? { json: this.#boardJson(board) } : fail(404, 40, 'Board not found.');
  }

  #sections(req: RecordedRequest, id: string): FakeResponse {
    const token = this.#auth(req, 'boards:read');
    if (!('scopes' in token)) return token;
    const board = this.#findBoard(id);
    return board ? this.#page(req, board.sections) : fail(404, 40, 'Board not found.');
  }

  #boardPins(req: RecordedRequest, id: string): FakeResponse {
    const token = this.#auth(req, 'pins:read');
    if (!('scopes' in token)) return token;
    if (!this.#findBoard(id)) return fail(404, 40, 'Board not found.');
    const pins = this.pins.filter((p) => p.boardId === id).reverse();
    return this.#page(
      req,
      pins.map((p) => ({
        id: p.id,
        title: p.title ?? null,
        description: p.description ?? null,
        link: p.link ?? null,
        board_id: p.boardId,
        created_at: p.createdAt,
      })),
    );
  }

  async #createPin(req: RecordedRequest): Promise<FakeResponse> {
    const token = this.#auth(req, 'pins:write');
    if (!('scopes' in token)) return token;
    const body = (req.body ?? {}) as Record<string, unknown>;
    const board = this.#findBoard(String(body.board_id ?? ''));
    if (!board) return fail(404, 40, 'Board not found.');
    if (body.board_section_id !== undefined && !board.sections.some((s) => s.id === body.board_section_id))
      return fail(404, 41, 'Board section not found.');
    const text = (name: string, max: number) =>
      body[name] !== undefined &&
      (typeof body[name] !== 'string' || [...(body[name] as string)].length > max);
    if (text('title', 100)) return fail(400, 1, 'Invalid parameters: title must be at most 100 characters.');
    if (text('description', 800))
      return fail(400, 1, 'Invalid parameters: description must be at most 800 characters.');
    if (text('alt_text', 500))
      return fail(400, 1, 'Invalid parameters: alt_text must be at most 500 characters.');
    if (body.link !== undefined && !/^https?:\/\//.test(String(body.link)))
      return fail(400, 1, 'Invalid parameters: link must be a valid URL.');
    const source = (body.media_source ?? {}) as Record<string, unknown>;
    const pin: FakePin = {
      id: String(1_000_000_000_000_000n + BigInt(this.pins.length + 1)),
      boardId: board.id,
      ...(typeof body.board_section_id === 'string' ? { boardSectionId: body.board_section_id } : {}),
      ...(typeof body.title === 'string' ? { title: body.title } : {}),
      ...(typeof body.description === 'string' ? { description: body.description } : {}),
      ...(typeof body.link === 'string' ? { link: body.link } : {}),
      ...(typeof body.alt_text === 'string' ? { altText: body.alt_text } : {}),
      sourceType: String(source.source_type),
      images: [],
      createdAt: new Date().toISOString(),
    };
    if (source.source_type === 'image_url' || source.source_type === 'multiple_image_urls') {
      const urls =
        source.source_type === 'image_url'
          ? [String(source.url ?? '')]
          : ((source.items as { url?: string }[] | undefined) ?? []).map((i) => String(i.url ?? ''));
      if (source.source_type === 'multiple_image_urls' && (urls.length < 2 || urls.length > 5))
        return fail(400, 1, 'Invalid parameters: a carousel takes 2 to 5 images.');
      for (const url of urls) {
        const fetched = await fetchMedia(url);
        if (!fetched?.contentType.startsWith('image/'))
          return fail(400, 1, `Sorry we could not fetch the image. (${url})`);
        pin.images.push({ url, bytes: fetched.bytes.length, contentType: fetched.contentType });
      }
    } else if (source.source_type === 'video_id') {
      const media = this.media.get(String(source.media_id ?? ''));
      if (media?.status !== 'succeeded')
        return fail(400, 1, 'Invalid parameters: the video media is not ready (media_id).');
      if (source.cover_image_url === undefined && source.cover_image_key_frame_time === undefined)
        return fail(
          400,
          1,
          'Invalid parameters: a video pin needs cover_image_url or cover_image_key_frame_time.',
        );
      pin.mediaId = media.id;
    } else {
      return fail(400, 1, 'Invalid parameters: media_source.source_type is not supported.');
    }
    this.pins.push(pin);
    if (this.losePinAnswer) {
      this.losePinAnswer = false;
      return { drop: true };
    }
    return {
      status: 201,
      json: {
        id: pin.id,
        created_at: pin.createdAt,
        link: pin.link ?? null,
        title: pin.title ?? null,
        description: pin.description ?? null,
        alt_text: pin.altText ?? null,
        board_id: pin.boardId,
        board_section_id: pin.boardSectionId ?? null,
        board_owner: { username: this.user.username },
        media: { media_type: pin.mediaId ? 'video' : 'image' },
      },
    };
  }

  #registerMedia(req: RecordedRequest): FakeResponse {
    const token = this.#auth(req, 'pins:write');
    if (!('scopes' in token)) return token;
    if ((req.body as { media_type?: string } | undefined)?.media_type !== 'video')
      return fail(400, 1, 'Invalid parameters: media_type must be video.');
    const id = String(5_000_000_000_000_000_000n + BigInt(this.media.size + 1));
    const uploadKey = `uploads/${randomBytes(6).toString('hex')}/${id}`;
    this.media.set(id, { id, status: 'registered', uploadKey, pollsLeft: this.processingPolls });
    return {
      status: 201,
      json: {
        media_id: id,
        media_type: 'video',
        upload_url: `${this.url}/pinterest-media-upload/`,
        upload_parameters: {
          'x-amz-date': '20261125T000000Z',
          'x-amz-signature': randomBytes(16).toString('hex'),
          'x-amz-security-token': 'fake-token',
          'x-amz-algorithm': 'AWS4-HMAC-SHA256',
          key: uploadKey,
          policy: Buffer.from('{"conditions":[]}').toString('base64'),
          'x-amz-credential': 'FAKE/20261125/us-east-1/s3/aws4_request',
          'Content-Type': 'multipart/form-data',
        },
      },
    };
  }

  #upload(req: RecordedRequest): FakeResponse {
    const fields = (req.body ?? {}) as Record<string, string>;
    const media = [...this.media.values()].find((m) => m.uploadKey === fields.key);
    const file = req.files.file;
    if (!media || !fields['x-amz-signature'] || !fields.policy)
      return { status: 403, text: '<Error><Code>AccessDenied</Code></Error>' };
    if (!file) return { status: 400, text: '<Error><Code>InvalidArgument</Code></Error>' };
    media.bytes = file.size;
    media.contentType = file.type;
    media.status = 'processing';
    return { status: 204 };
  }

  #mediaStatus(req: RecordedRequest, id: string): FakeResponse {
    const token = this.#auth(req, 'pins:read');
    if (!('scopes' in token)) return token;
    const media = this.media.get(id);
    if (!media) return fail(404, 3, 'Media not found.');
    if (media.status === 'processing') {
      if (this.failNextVideo) {
        media.status = 'failed';
        this.failNextVideo = false;
      } else if (media.pollsLeft > 0) media.pollsLeft--;
      else media.status = 'succeeded';
    }
    return { json: { media_id: media.id, media_type: 'video', status: media.status } };
  }
}

export async function startFakePinterest(options: FakePinterestOptions = {}): Promise<FakePinterest> {
  return new FakePinterest(options).start();
}
