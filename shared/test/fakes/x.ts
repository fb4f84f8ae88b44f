import { createHash, randomBytes } from 'node:crypto';
import twitterText from 'twitter-text';
import { type FakeResponse, FakeServer, type RecordedRequest } from './fake-server.ts';
import { FakeFigures } from './figures.ts';
import { AuthorizationCodes } from './meta-graph.ts';

/**
 * A fake of the X API v2 as Postwave uses it: OAuth 2.0 with PKCE (consent redirect, token
 * endpoint with rotating refresh tokens, Basic client authentication), `GET /2/users/me`,
 * `POST /2/tweets` (weighted length, duplicate content, replies, quotes, reply settings),
 * media upload v2 (initialize / append / finalize / STATUS with processing states), media
 * metadata (alt text, up to 1000 characters), `GET /2/tweets?ids=` with `public_metrics` and
 * `users/me` with the user's `public_metrics` (figures set through `figures`), and rate
 * limits with X's `x-rate-limit-*` headers. Error bodies follow X's problem format.
 */
export interface FakeXOptions {
  clientId?: string;
  /** Undefined: a public client (no secret, `client_id` in the form). */
  clientSecret?: string | null;
  user?: Partial<FakeXUser>;
  /** Access token lifetime; X's is two hours. */
  accessTokenTtlSeconds?: number;
  /** STATUS polls a video or GIF stays `in_progress` before `succeeded`. */
  processingPolls?: number;
  /** Requests per 15-minute window for each endpoint. */
  rateLimit?: number;
}

export interface FakeXUser {
  id: string;
  name: string;
  username: string;
  profileImageUrl: string;
}

export interface FakeXPost {
  id: string;
  authorId: string;
  text: string;
  mediaIds: string[];
  replyTo?: string;
  quoteOf?: string;
  replySettings?: string;
}

export interface FakeXMedia {
  id: string;
  ownerId: string;
  mediaType: string;
  category: string;
  totalBytes: number;
  segments: Map<number, Buffer>;
  finalized: boolean;
  /** pending → in_progress → succeeded | failed; images succeed at finalize. */
  state: 'uploading' | 'pending' | 'in_progress' | 'succeeded' | 'failed';
  pollsLeft: number;
  fail?: { name: string; message: string };
  bytes?: Buffer;
  /** Set through `POST /2/media/metadata`. */
  altText?: string;
}

interface Grant {
  userId: string;
  scope: string;
  used: boolean;
}
interface IssuedCode {
  redirectUri: string;
  challenge: string;
  method: string;
  scope: string;
  expiresAt: number;
}
interface Window {
  limit: number;
  remaining: number;
  reset: number;
}

const sizeLimits: Record<string, number> = {
  tweet_image: 5 * 1024 * 1024,
  tweet_gif: 15 * 1024 * 1024,
  tweet_video: 512 * 1024 * 1024,
};
const replySettingsValues = new Set(['following', 'mentionedUsers', 'subscribers', 'verified']);
const version3 = (twitterText as unknown as { configs: { version3: object } }).configs.version3;

export function xProblem(status: number, title: string, detail: string, type = 'about:blank'): FakeResponse {
  return { status, json: { title, detail, type, status } };
}

export function xInvalidRequest(message: string, parameters: Record<string, unknown> = {}): FakeResponse {
  return {
    status: 400,
    json: {
      errors: [{ parameters, message }],
      title: 'Invalid Request',
      detail: 'One or more parameters to your request was invalid.',
      type: 'https://api.twitter.com/2/problems/invalid-request',
    },
  };
}

const unauthorized = (): FakeResponse => xProblem(401, 'Unauthorized', 'Unauthorized');
const snowflake = () =>
  ((BigInt(Date.now() - 1288834974657) << 22n) | BigInt(randomBytes(2).readUInt16BE() & 0x3fffff)).toString();

export class FakeX {
  readonly server = new FakeServer({ maxBodyBytes: 6 * 1024 * 1024 });
  readonly clientId: string;
  readonly clientSecret: string | undefined;
  readonly user: FakeXUser;
  readonly posts: FakeXPost[] = [];
  readonly media = new Map<string, FakeXMedia>();
  /** What `GET /2/tweets` reports per post (`public_metrics` names) and `users/me` as followers. */
  readonly figures = new FakeFigures<
    'impression_count' | 'like_count' | 'reply_count' | 'retweet_count' | 'quote_count' | 'bookmark_count'
  >();
  accessTokenTtlSeconds: number;
  processingPolls: number;
  /** How the consent screen answers. */
  consent: 'approve' | 'deny' = 'approve';
  /** Posts that exist on the platform (reply and quote targets). */
  readonly knownPostIds = new Set<string>(['1850000000000000001']);
  readonly #accessTokens = new Map<string, { userId: string; expiresAt: number; scope: string }>();
  readonly #refreshTokens = new Map<string, Grant>();
  readonly #codes = new AuthorizationCodes<IssuedCode>();
  readonly #windows = new Map<string, Window>();
  readonly #rateLimit: number;
  #failProcessing: { name: string; message: string } | undefined;
  #loseNextPostAnswer = false;

  constructor(options: FakeXOptions = {}) {
    this.clientId = options.clientId ?? 'fake-x-client-id';
    this.clientSecret =
      options.clientSecret === null ? undefined : (options.clientSecret ?? 'fake-x-client-secret');
    this.user = {
      id: '1234567890123456789',
      name: 'Fake X User',
      username: 'fakexuser',
      profileImageUrl: 'https://pbs.twimg.example/profile_images/1/fake_normal.jpg',
      ...options.user,
    };
    this.accessTokenTtlSeconds = options.accessTokenTtlSeconds ?? 7200;
    this.processingPolls = options.processingPolls ?? 2;
    this.#rateLimit = options.rateLimit ?? 300;
    this.server
      .route('GET', /^\/i\/oauth2\/authorize$/, (r) => this.#authorize(r))
      .route('POST', /^\/2\/oauth2\/token$/, (r) => this.#token(r))
      .route('GET', /^\/2\/users\/me$/, (r) => this.#limited(r, 'users/me', () => this.#me(r)))
      .route('GET', /^\/2\/users\/(\d+)\/tweets$/, (r, m) =>
        this.#limited(r, 'users/tweets', () => this.#timeline(r, m[1]!)),
      )
      .route('GET', /^\/2\/tweets$/, (r) => this.#limited(r, 'tweets/lookup', () => this.#lookup(r)))
      .route('POST', /^\/2\/tweets$/, (r) =>
        this.#limited(r, 'tweets', (userId) => this.#createPost(r, userId)),
      )
      .route('POST', /^\/2\/media\/upload\/initialize$/, (r) =>
        this.#limited(r, 'media', (userId) => this.#initialize(r, userId)),
      )
      .route('POST', /^\/2\/media\/upload\/([^/]+)\/append$/, (r, m) =>
        this.#limited(r, 'media', (userId) => this.#append(r, userId, m[1]!)),
      )
      .route('POST', /^\/2\/media\/upload\/([^/]+)\/finalize$/, (r, m) =>
        this.#limited(r, 'media', (userId) => this.#finalize(userId, m[1]!)),
      )
      .route('GET', /^\/2\/media\/upload$/, (r) =>
        this.#limited(r, 'media-status', (userId) => this.#status(r, userId)),
      )
      .route('POST', /^\/2\/media\/metadata$/, (r) =>
        this.#limited(r, 'media-metadata', (userId) => this.#metadata(r, userId)),
      );
  }

  get url(): string {
    return this.server.url;
  }
  get authorizeUrl(): string {
    return `${this.url}/i/oauth2/authorize`;
  }

  env(): Record<string, string> {
    return {
      X_API_URL: this.url,
      X_OAUTH_AUTHORIZE_URL: this.authorizeUrl,
      X_CLIENT_ID: this.clientId,
      ...(this.clientSecret ? { X_CLIENT_SECRET: this.clientSecret } : {}),
    };
  }

  /** Credentials as the accounts file holds them: a valid access token and a refresh token. */
  credentials(options: { expiresInSeconds?: number; withClient?: boolean } = {}): Record<string, unknown> {
    const { token, expiresAt } = this.issueAccessToken(options.expiresInSeconds);
    const refreshToken = this.issueRefreshToken();
    return {
      accessToken: token,
      refreshToken,
      expiresAt: new Date(expiresAt).toISOString(),
      ...(options.withClient === false
        ? {}
        : { clientId: this.clientId, ...(this.clientSecret ? { clientSecret: this.clientSecret } : {}) }),
    };
  }

  issueAccessToken(expiresInSeconds = this.accessTokenTtlSeconds): { token: string; expiresAt: number } {
    const token = randomBytes(48).toString('base64url');
    const expiresAt = Date.now() + expiresInSeconds * 1000;
    this.#accessTokens.set(token, {
      userId: this.user.id,
      expiresAt,
      scope: 'tweet.read tweet.write users.read media.write offline.access',
    });
    return { token, expiresAt };
  }

  issueRefreshToken(): string {
    const token = randomBytes(48).toString('base64url');
    this.#refreshTokens.set(token, {
      userId: this.user.id,
      scope: 'tweet.read tweet.write users.read media.write offline.access',
      used: false,
    });
    return token;
  }

  /** Every access token stops working (revoked or expired early). */
  invalidateAccessTokens(): void {
    this.#accessTokens.clear();
  }

  /** The user revoked the app: every refresh token stops working. */
  revokeRefreshTokens(): void {
    for (const grant of this.#refreshTokens.values()) grant.used = true;
  }

  /** The next endpoint window ("tweets", "media", "users/me") is spent until `resetInSeconds`. */
  exhaustRateLimit(endpoint: string, resetInSeconds: number): void {
    this.#windows.set(endpoint, {
      limit: this.#rateLimit,
      remaining: 0,
      reset: Math.ceil(Date.now() / 1000) + resetInSeconds,
    });
  }

  /** The next video or GIF fails processing with X's error. */
  failNextProcessing(name = 'InvalidMedia', message = 'Unsupported video format'): void {
    this.#failProcessing = { name, message };
  }

  /** The next post is created, but the connection drops before the answer (an unclear outcome). */
  loseNextPostAnswer(): void {
    this.#loseNextPostAnswer = true;
  }

  requestsTo(method: string, path: RegExp): RecordedRequest[] {
    return this.server.requests.filter((r) => r.method === method && path.test(r.path));
  }

  start(): Promise<FakeServer> {
    return this.server.start();
  }
  close(): Promise<void> {
    return this.server.close();
  }

  // --- OAuth 2.0 -----------------------------------------------------------------------------

  #authorize(request: RecordedRequest): FakeResponse {
    const q = request.query;
    if (q.get('client_id') !== this.clientId)
      return { status: 400, text: 'Something went wrong: unknown client_id' };
    const redirectUri = q.get('redirect_uri');
    if (!redirectUri) return { status: 400, text: 'Something went wrong: redirect_uri missing' };
    const back = new URL(redirectUri);
    const state = q.get('state');
    if (state !== null) back.searchParams.set('state', state);
    const challenge = q.get('code_challenge');
    if (q.get('response_type') !== 'code' || !q.get('scope') || !challenge || !state) {
      back.searchParams.set('error', 'invalid_request');
    } else if (this.consent === 'deny') {
      back.searchParams.set('error', 'access_denied');
    } else {
      const code = randomBytes(32).toString('base64url');
      this.#codes.issue(code, {
        redirectUri,
        challenge,
        method: q.get('code_challenge_method') ?? 'plain',
        scope: q.get('scope')!,
        expiresAt: Date.now() + 30_000,
      });
      back.searchParams.set('code', code);
    }
    return { status: 302, headers: { location: back.toString() } };
  }

  #token(request: RecordedRequest): FakeResponse {
    const tokenError = (status: number, error: string, description: string): FakeResponse => ({
      status,
      json: { error, error_description: description },
    });
    const form = (request.body ?? {}) as Record<string, string>;
    if (!String(request.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded')) {
      return tokenError(400, 'invalid_request', 'Missing required parameter [grant_type].');
    }
    const header = String(request.headers.authorization ?? '');
    if (this.clientSecret) {
      const decoded = header.startsWith('Basic ') ? Buffer.from(header.slice(6), 'base64').toString() : '';
      const [id, secret] = decoded.split(':').map((part) => decodeURIComponent(part));
      if (id !== this.clientId || secret !== this.clientSecret) {
        return tokenError(401, 'unauthorized_client', 'Missing valid authorization header');
      }
    } else if (form.client_id !== this.clientId) {
      return tokenError(400, 'invalid_request', 'Missing required parameter [client_id].');
    }
    if (form.grant_type === 'refresh_token') {
      const grant = form.refresh_token ? this.#refreshTokens.get(form.refresh_token) : undefined;
      if (!grant || grant.used)
        return tokenError(400, 'invalid_request', 'Value passed for the token was invalid.');
      // Rotation: the refresh token is single-use.
      grant.used = true;
      return { json: this.#grantTokens(grant.scope) };
    }
    if (form.grant_type === 'authorization_code') {
      const redeemed = this.#codes.redeem(form.code, form.redirect_uri);
      if ('problem' in redeemed) {
        return redeemed.problem === 'redirect_mismatch'
          ? tokenError(
              400,
              'invalid_request',
              'Value passed for the redirect uri did not match the uri of the authorization code.',
            )
          : tokenError(400, 'invalid_request', 'Value passed for the authorization code was invalid.');
      }
      const issued = redeemed.grant;
      const verifier = form.code_verifier ?? '';
      const expected =
        issued.method === 'S256' ? createHash('sha256').update(verifier).digest('base64url') : verifier;
      if (!verifier || expected !== issued.challenge) {
        return tokenError(
          400,
          'invalid_request',
          'Value passed for the code verifier did not match the code challenge.',
        );
      }
      return { json: this.#grantTokens(issued.scope) };
    }
    return tokenError(400, 'invalid_request', 'Value passed for the grant type was invalid.');
  }

  #grantTokens(scope: string): Record<string, unknown> {
    const { token } = this.issueAccessToken();
    const answer: Record<string, unknown> = {
      token_type: 'bearer',
      expires_in: this.accessTokenTtlSeconds,
      access_token: token,
      scope,
    };
    if (scope.split(' ').includes('offline.access')) {
      const refreshToken = randomBytes(48).toString('base64url');
      this.#refreshTokens.set(refreshToken, { userId: this.user.id, scope, used: false });
      answer.refresh_token = refreshToken;
    }
    return answer;
  }

  // --- API -----------------------------------------------------------------------------------

  /** Bearer check, then the endpoint's 15-minute window with X's rate-limit headers on every answer. */
  async #limited(
    request: RecordedRequest,
    endpoint: string,
    handle: (userId: string) => FakeResponse | Promise<FakeResponse>,
  ): Promise<FakeResponse> {
    const header = String(request.headers.authorization ?? '');
    const known = this.#accessTokens.get(header.startsWith('Bearer ') ? header.slice(7) : '');
    if (!known || known.expiresAt <= Date.now()) return unauthorized();
    const now = Math.floor(Date.now() / 1000);
    let window = this.#windows.get(endpoint);
    if (!window || window.reset <= now) {
      window = { limit: this.#rateLimit, remaining: this.#rateLimit, reset: now + 900 };
      this.#windows.set(endpoint, window);
    }
    const headers = () => ({
      'x-rate-limit-limit': String(window.limit),
      'x-rate-limit-remaining': String(window.remaining),
      'x-rate-limit-reset': String(window.reset),
    });
    if (window.remaining <= 0) {
      return { ...xProblem(429, 'Too Many Requests', 'Too Many Requests'), headers: headers() };
    }
    window.remaining--;
    const answer = await handle(known.userId);
    return { ...answer, headers: { ...headers(), ...answer.headers } };
  }

  #me(request: RecordedRequest): FakeResponse {
    const fields = (request.query.get('user.fields') ?? '').split(',');
    return {
      json: {
        data: {
          id: this.user.id,
          name: this.user.name,
          username: this.user.username,
          ...(fields.includes('profile_image_url') ? { profile_image_url: this.user.profileImageUrl } : {}),
          ...(fields.includes('public_metrics')
            ? {
                public_metrics: {
                  followers_count: this.figures.followers,
                  following_count: 0,
                  tweet_count: this.posts.length,
                  listed_count: 0,
                  like_count: 0,
                },
              }
            : {}),
        },
      },
    };
  }

  /**
   * `GET /2/tweets?ids=` (up to 100): the posts that exist, with `public_metrics` when asked;
   * a deleted or unknown id is in `errors` as a resource-not-found problem, as X answers it.
   */
  #lookup(request: RecordedRequest): FakeResponse {
    const ids = (request.query.get('ids') ?? '').split(',').filter(Boolean);
    if (ids.length === 0 || ids.length > 100)
      return xInvalidRequest('The `ids` query parameter value must be 1 to 100 ids', { ids });
    const withMetrics = (request.query.get('tweet.fields') ?? '').split(',').includes('public_metrics');
    const data: unknown[] = [];
    const errors: unknown[] = [];
    for (const id of ids) {
      const post = this.posts.find((p) => p.id === id);
      if (!post || this.figures.isDeleted(id)) {
        errors.push({
          value: id,
          detail: `Could not find tweet with ids: [${id}].`,
          title: 'Not Found Error',
          resource_type: 'tweet',
          parameter: 'ids',
          resource_id: id,
          type: 'https://api.twitter.com/2/problems/resource-not-found',
        });
        continue;
      }
      const f = (name: Parameters<typeof this.figures.of>[1]) => this.figures.of(id, name);
      data.push({
        id,
        text: post.text,
        edit_history_tweet_ids: [id],
        ...(withMetrics
          ? {
              public_metrics: {
                retweet_count: f('retweet_count'),
                reply_count: f('reply_count'),
                like_count: f('like_count'),
                quote_count: f('quote_count'),
                bookmark_count: f('bookmark_count'),
                impression_count: f('impression_count'),
              },
            }
          : {}),
      });
    }
    return { json: { ...(data.length > 0 ? { data } : {}), ...(errors.length > 0 ? { errors } : {}) } };
  }

  /** `GET /2/users/:id/tweets`: newest first, links shown as t.co links as X does. */
  #timeline(request: RecordedRequest, userId: string): FakeResponse {
    const max = Math.min(100, Math.max(5, Number(request.query.get('max_results') ?? 10)));
    const posts = this.posts
      .filter((p) => p.authorId === userId)
      .slice(-max)
      .reverse();
    if (posts.length === 0) return { json: { meta: { result_count: 0 } } };
    return {
      json: {
        data: posts.map((p) => ({
          id: p.id,
          text: p.text.replace(
            /https?:\/\/\S+/g,
            () => `https://t.co/${randomBytes(5).toString('base64url')}`,
          ),
          edit_history_tweet_ids: [p.id],
        })),
        meta: { result_count: posts.length, newest_id: posts[0]!.id, oldest_id: posts.at(-1)!.id },
      },
    };
  }

  #createPost(request: RecordedRequest, userId: string): FakeResponse {
    if (!String(request.headers['content-type'] ?? '').includes('application/json') || !request.body) {
      return xInvalidRequest('Request body must be JSON');
    }
    const body = request.body as {
      text?: unknown;
      media?: { media_ids?: unknown };
      reply?: { in_reply_to_tweet_id?: unknown };
      quote_tweet_id?: unknown;
      reply_settings?: unknown;
    };
    if (body.text !== undefined && (typeof body.text !== 'string' || body.text === '')) {
      return xInvalidRequest('$.text: must be a non-empty string', { text: [body.text] });
    }
    const text = typeof body.text === 'string' ? body.text : '';
    const mediaIds = Array.isArray(body.media?.media_ids)
      ? (body.media.media_ids as unknown[]).map(String)
      : [];
    if (!text && mediaIds.length === 0)
      return xInvalidRequest('Post text or media is required', { text: [] });
    if (twitterText.parseTweet(text, version3).weightedLength > 280) {
      return xProblem(
        403,
        'Forbidden',
        'Your Tweet text is too long. For more information on how X determines text length see https://github.com/twitter/twitter-text.',
      );
    }
    if (body.reply_settings !== undefined && !replySettingsValues.has(String(body.reply_settings))) {
      return xInvalidRequest(
        `$.reply_settings: does not have a value in the enumeration [following, mentionedUsers, subscribers, verified]`,
        {
          reply_settings: [body.reply_settings],
        },
      );
    }
    if (mediaIds.length > 4)
      return xInvalidRequest('$.media.media_ids: is too long', { 'media.media_ids': mediaIds });
    for (const id of mediaIds) {
      const media = this.media.get(id);
      if (!media || media.ownerId !== userId || media.state !== 'succeeded') {
        return xInvalidRequest('Your media IDs are invalid.', { 'media.media_ids': [id] });
      }
    }
    const kinds = mediaIds.map((id) => this.media.get(id)!.category);
    if (kinds.length > 1 && kinds.some((k) => k !== 'tweet_image')) {
      return xInvalidRequest('Your media IDs are invalid.', { 'media.media_ids': mediaIds });
    }
    const replyTo = body.reply?.in_reply_to_tweet_id;
    if (replyTo !== undefined && !this.knownPostIds.has(String(replyTo))) {
      return xProblem(
        403,
        'Forbidden',
        'You attempted to reply to a Tweet that is deleted or not visible to you.',
      );
    }
    if (body.quote_tweet_id !== undefined && !this.knownPostIds.has(String(body.quote_tweet_id))) {
      return xProblem(
        403,
        'Forbidden',
        'You attempted to quote a Tweet that is deleted or not visible to you.',
      );
    }
    if (text && this.posts.some((p) => p.authorId === userId && p.text === text)) {
      return xProblem(403, 'Forbidden', 'You are not allowed to create a Tweet with duplicate content.');
    }
    const id = snowflake();
    this.knownPostIds.add(id);
    this.posts.push({
      id,
      authorId: userId,
      text,
      mediaIds,
      ...(replyTo === undefined ? {} : { replyTo: String(replyTo) }),
      ...(body.quote_tweet_id === undefined ? {} : { quoteOf: String(body.quote_tweet_id) }),
      ...(body.reply_settings === undefined ? {} : { replySettings: String(body.reply_settings) }),
    });
    if (this.#loseNextPostAnswer) {
      this.#loseNextPostAnswer = false;
      return { drop: true };
    }
    return { status: 201, json: { data: { id, text, edit_history_tweet_ids: [id] } } };
  }

  #initialize(request: RecordedRequest, userId: string): FakeResponse {
    const body = (request.body ?? {}) as {
      media_type?: unknown;
      total_bytes?: unknown;
      media_category?: unknown;
    };
    const mediaType = String(body.media_type ?? '');
    const total = Number(body.total_bytes);
    const category = String(body.media_category ?? 'tweet_image');
    if (!/^(image\/(jpeg|png|webp|gif|bmp|pjpeg|tiff)|video\/(mp4|webm|mp2t|quicktime))$/.test(mediaType)) {
      return xInvalidRequest(`$.media_type: does not have a value in the enumeration`, {
        media_type: [mediaType],
      });
    }
    if (!(category in sizeLimits)) {
      return xInvalidRequest('$.media_category: does not have a value in the enumeration', {
        media_category: [category],
      });
    }
    if (!Number.isSafeInteger(total) || total <= 0) {
      return xInvalidRequest('$.total_bytes: must be a positive integer', {
        total_bytes: [body.total_bytes],
      });
    }
    if (total > sizeLimits[category]!) {
      return xInvalidRequest('File size exceeds the maximum allowed for this media category.', {
        total_bytes: [total],
      });
    }
    const id = snowflake();
    this.media.set(id, {
      id,
      ownerId: userId,
      mediaType,
      category,
      totalBytes: total,
      segments: new Map(),
      finalized: false,
      state: 'uploading',
      pollsLeft: this.processingPolls,
    });
    const mediaKey = `${category === 'tweet_image' ? 3 : category === 'tweet_gif' ? 16 : 7}_${id}`;
    return { json: { data: { id, media_key: mediaKey, expires_after_secs: 86400 } } };
  }

  async #append(request: RecordedRequest, userId: string, id: string): Promise<FakeResponse> {
    const media = this.media.get(id);
    if (!media || media.ownerId !== userId) return xInvalidRequest('Invalid media id', { media_id: [id] });
    if (media.finalized) return xInvalidRequest('Media is already finalized', { media_id: [id] });
    const index = Number((request.body as Record<string, unknown> | undefined)?.segment_index);
    const file = request.files.media;
    if (!Number.isInteger(index) || index < 0 || index > 999) {
      return xInvalidRequest('$.segment_index: must be between 0 and 999', { segment_index: [index] });
    }
    if (!file) return xInvalidRequest('$.media: is missing but it is required', { media: [] });
    media.segments.set(index, Buffer.from(await file.arrayBuffer()));
    return { json: { data: { expires_at: Math.floor(Date.now() / 1000) + 86400 } } };
  }

  /** Deletes a post, as its author would: replies and quotes of it are then refused. */
  deletePost(id: string): void {
    this.knownPostIds.delete(id);
  }

  /** `POST /2/media/metadata` `{ id, metadata: { alt_text: { text } } }`: alt text of an uploaded image or GIF. */
  #metadata(request: RecordedRequest, userId: string): FakeResponse {
    const body = request.body as { id?: unknown; metadata?: { alt_text?: { text?: unknown } } } | undefined;
    const id = typeof body?.id === 'string' ? body.id : '';
    const text = body?.metadata?.alt_text?.text;
    const media = this.media.get(id);
    if (!media || media.ownerId !== userId || !media.finalized)
      return xInvalidRequest('Invalid media id', { id: [body?.id] });
    if (typeof text !== 'string') return xInvalidRequest('$.metadata.alt_text.text: is missing', {});
    if ([...text].length > 1000)
      return xInvalidRequest('$.metadata.alt_text.text: must be at most 1000 characters', {
        'metadata.alt_text.text': [text.length],
      });
    media.altText = text;
    return { json: { data: { id, associated_metadata: { alt_text: { text } } } } };
  }

  #finalize(userId: string, id: string): FakeResponse {
    const media = this.media.get(id);
    if (!media || media.ownerId !== userId) return xInvalidRequest('Invalid media id', { media_id: [id] });
    const indexes = [...media.segments.keys()].sort((a, b) => a - b);
    const bytes = Buffer.concat(indexes.map((i) => media.segments.get(i)!));
    if (bytes.length !== media.totalBytes || indexes.some((value, i) => value !== i)) {
      return xInvalidRequest('Segments do not add up to provided total file size.', { media_id: [id] });
    }
    media.bytes = bytes;
    media.finalized = true;
    const base = {
      id,
      media_key: `${media.category === 'tweet_image' ? 3 : 7}_${id}`,
      size: bytes.length,
      expires_after_secs: 86400,
    };
    if (media.category === 'tweet_image') {
      media.state = 'succeeded';
      return { json: { data: base } };
    }
    media.state = 'pending';
    if (this.#failProcessing) {
      media.fail = this.#failProcessing;
      this.#failProcessing = undefined;
    }
    return { json: { data: { ...base, processing_info: { state: 'pending', check_after_secs: 1 } } } };
  }

  #status(request: RecordedRequest, userId: string): FakeResponse {
    if (request.query.get('command') !== 'STATUS') {
      return xInvalidRequest('$.command: does not have a value in the enumeration [STATUS]', {
        command: [request.query.get('command')],
      });
    }
    const id = request.query.get('media_id') ?? '';
    const media = this.media.get(id);
    if (!media || media.ownerId !== userId || !media.finalized)
      return xInvalidRequest('Invalid media id', { media_id: [id] });
    if (media.state === 'pending' || media.state === 'in_progress') {
      if (media.pollsLeft > 0) {
        media.pollsLeft--;
        media.state = 'in_progress';
      } else {
        media.state = media.fail ? 'failed' : 'succeeded';
      }
    }
    const info =
      media.state === 'in_progress'
        ? { state: 'in_progress', check_after_secs: 1, progress_percent: 50 }
        : media.state === 'failed'
          ? {
              state: 'failed',
              progress_percent: 99,
              error: { code: 1, name: media.fail!.name, message: media.fail!.message },
            }
          : { state: 'succeeded', progress_percent: 100 };
    return { json: { data: { id, media_key: `7_${id}`, expires_after_secs: 86000, processing_info: info } } };
  }
}

export async function startFakeX(options: FakeXOptions = {}): Promise<FakeX> {
  const fake = new FakeX(options);
  await fake.start();
  return fake;
}
