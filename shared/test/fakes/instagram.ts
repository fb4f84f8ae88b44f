import { randomBytes } from 'node:crypto';
import { type FakeResponse, FakeServer, type RecordedRequest } from './fake-server.ts';
import { FakeFigures } from './figures.ts';
import {
  AuthorizationCodes,
  type FetchedMedia,
  fetchMedia,
  graphErrorResponse,
  graphTokenProblem,
  graphUnknownObject,
  mediaInsightsAnswer,
  usageHeaders,
} from './meta-graph.ts';

/**
 * A fake of the Instagram API with Instagram Login: the authorize redirect
 * (`/oauth/authorize`), the code exchange (`POST /oauth/access_token`, api.instagram.com), the
 * long-lived exchange and refresh (`/access_token`, `/refresh_access_token`), `/me`, and the
 * Content Publishing API: `content_publishing_limit`, `/{ig}/media` containers (image, REELS,
 * carousel items and CAROUSEL) fetched from their URLs, `status_code` that moves
 * IN_PROGRESS → FINISHED (or ERROR / EXPIRED), `media_publish` and the published media's
 * `permalink`, image `alt_text`, comments (`POST /{ig-media-id}/comments`), with Graph error
 * bodies and usage headers.
 */
export interface FakeInstagramOptions {
  appId?: string;
  appSecret?: string;
  account?: Partial<FakeInstagramAccount>;
  /** Status polls a video container answers IN_PROGRESS before FINISHED. */
  videoProcessingPolls?: number;
  /** Fetch media from their URLs as Instagram does (default); false only records the URLs. */
  fetchMedia?: boolean;
  quotaTotal?: number;
}

export interface FakeInstagramAccount {
  id: string;
  username: string;
  name: string;
  pictureUrl: string;
}

export interface FakeContainer {
  id: string;
  owner: string;
  mediaType: 'IMAGE' | 'VIDEO' | 'REELS' | 'CAROUSEL';
  url?: string;
  caption?: string;
  /** `alt_text` of an image (Instagram documents it for images only). */
  altText?: string;
  carouselItem: boolean;
  children: string[];
  shareToFeed?: boolean;
  thumbOffset?: number;
  media?: FetchedMedia;
  status: 'IN_PROGRESS' | 'FINISHED' | 'ERROR' | 'EXPIRED' | 'PUBLISHED';
  pollsLeft: number;
  /** Instagram expires a container not published within 24 hours of its creation. */
  createdAt: number;
}

export interface FakeInstagramMedia {
  id: string;
  owner: string;
  containerId: string;
  mediaType: string;
  caption?: string;
  children: FakeContainer[];
  permalink: string;
  /** Deleted by the account (`deleteMedia`): comments on it are refused. */
  deleted?: boolean;
}

export interface FakeInstagramComment {
  id: string;
  mediaId: string;
  text: string;
}

interface Token {
  longLived: boolean;
  expiresAt: number;
  valid: boolean;
  createdAt: number;
}

export class FakeInstagram {
  readonly server = new FakeServer();
  readonly appId: string;
  readonly appSecret: string;
  readonly account: FakeInstagramAccount;
  readonly containers = new Map<string, FakeContainer>();
  readonly media: FakeInstagramMedia[] = [];
  readonly comments: FakeInstagramComment[] = [];
  /** What media insights report per media id; `followers` is the account's `followers_count`. */
  readonly figures = new FakeFigures<'views' | 'reach' | 'likes' | 'comments' | 'shares' | 'saved'>();
  consent: 'approve' | 'deny' = 'approve';
  videoProcessingPolls: number;
  fetchMedia: boolean;
  quotaTotal: number;
  /** Posts published in the last 24 hours, as `content_publishing_limit` reports them. */
  quotaUsage = 0;
  /** The next video container ends in this state instead of FINISHED. */
  nextVideoOutcome: 'FINISHED' | 'ERROR' | 'EXPIRED' = 'FINISHED';
  /** The next media_publish publishes but its answer never arrives (the connection drops). */
  loseNextPublishAnswer = false;
  readonly #tokens = new Map<string, Token>();
  readonly #codes = new AuthorizationCodes<{ redirectUri: string }>();
  #ids = 17_800_000_000_000_000n;

  constructor(options: FakeInstagramOptions = {}) {
    this.appId = options.appId ?? '990011223344556';
    this.appSecret = options.appSecret ?? 'fake-instagram-app-secret';
    this.account = {
      id: '17841400000000001',
      username: 'postwave.bakery',
      name: 'Postwave Bakery',
      pictureUrl: 'https://scontent.cdninstagram.example/bakery.jpg',
      ...options.account,
    };
    this.videoProcessingPolls = options.videoProcessingPolls ?? 2;
    this.fetchMedia = options.fetchMedia ?? true;
    this.quotaTotal = options.quotaTotal ?? 100;

    const v = String.raw`^\/v\d+\.\d+`;
    this.server
      .route('GET', /^\/oauth\/authorize$/, (r) => this.#authorize(r))
      .route('POST', /^\/oauth\/access_token$/, (r) => this.#exchangeCode(r))
      .route('GET', /^\/access_token$/, (r) => this.#longLived(r))
      .route('GET', /^\/refresh_access_token$/, (r) => this.#refresh(r))
      .route('GET', new RegExp(`${v}/me$`), (r) => this.#me(r))
      .route('GET', new RegExp(`${v}/(\\d+)/content_publishing_limit$`), (r, m) => this.#limit(r, m[1]!))
      .route('POST', new RegExp(`${v}/(\\d+)/media$`), (r, m) => this.#createContainer(r, m[1]!))
      .route('GET', new RegExp(`${v}/(\\d+)/media$`), (r, m) => this.#listMedia(r, m[1]!))
      .route('POST', new RegExp(`${v}/(\\d+)/media_publish$`), (r, m) => this.#publish(r, m[1]!))
      .route('POST', new RegExp(`${v}/(\\d+)/comments$`), (r, m) => this.#comment(r, m[1]!))
      .route('GET', new RegExp(`${v}/(\\d+)/insights$`), (r, m) => this.#insights(r, m[1]!))
      .route('GET', new RegExp(`${v}/(\\d+)$`), (r, m) => this.#object(r, m[1]!));
  }

  get url(): string {
    return this.server.url;
  }

  env(): Record<string, string> {
    return {
      INSTAGRAM_GRAPH_URL: this.url,
      INSTAGRAM_OAUTH_AUTHORIZE_URL: `${this.url}/oauth/authorize`,
      INSTAGRAM_OAUTH_TOKEN_URL: `${this.url}/oauth/access_token`,
      INSTAGRAM_APP_ID: this.appId,
      INSTAGRAM_APP_SECRET: this.appSecret,
      INSTAGRAM_POLL_INTERVAL_MS: '5',
    };
  }

  /** A long-lived token (60 days unless told), valid for publishing. */
  issueToken(expiresInSeconds = 5_184_000, longLived = true): string {
    const token = `IGAA${randomBytes(32).toString('base64url')}`;
    this.#tokens.set(token, {
      longLived,
      expiresAt: Date.now() + expiresInSeconds * 1000,
      valid: true,
      createdAt: Date.now() - (longLived ? 2 * 86_400_000 : 0),
    });
    return token;
  }

  credentials(): Record<string, unknown> {
    return { accessToken: this.issueToken() };
  }

  invalidateTokens(): void {
    for (const token of this.#tokens.values()) token.valid = false;
  }

  failNext(options: {
    path?: RegExp;
    status?: number;
    code: number;
    subcode?: number;
    message: string;
    times?: number;
  }): void {
    const limited = [4, 17, 32, 613].includes(options.code);
    this.server.inject({
      ...(options.path ? { path: options.path } : {}),
      times: options.times ?? 1,
      ...graphErrorResponse(
        options.status ?? (limited ? 403 : 400),
        { message: options.message, code: options.code, error_subcode: options.subcode },
        limited ? usageHeaders(this.account.id, 'instagram', 100, 1) : {},
      ),
    });
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

  #id(): string {
    this.#ids += 1n;
    return String(this.#ids);
  }

  #params(request: RecordedRequest): Record<string, string> {
    return { ...Object.fromEntries(request.query), ...((request.body ?? {}) as Record<string, string>) };
  }

  #ok(json: unknown): FakeResponse {
    return { json, headers: usageHeaders(this.account.id, 'instagram', Math.min(100, this.quotaUsage)) };
  }

  #token(request: RecordedRequest): Token | FakeResponse {
    const params = this.#params(request);
    const header = String(request.headers.authorization ?? '');
    const token = this.#tokens.get(params.access_token ?? header.replace(/^Bearer /, ''));
    return graphTokenProblem(token) ?? token!;
  }

  #owner(request: RecordedRequest, user: string): Token | FakeResponse {
    const token = this.#token(request);
    if (!isToken(token)) return token;
    if (user !== this.account.id) {
      return graphUnknownObject(user, 'post');
    }
    return token;
  }

  // --- Instagram Login ------------------------------------------------------------------------

  #authorize(request: RecordedRequest): FakeResponse {
    const q = request.query;
    const redirectUri = q.get('redirect_uri');
    if (q.get('client_id') !== this.appId || !redirectUri)
      return { status: 400, text: 'Invalid platform app' };
    const back = new URL(redirectUri);
    if (q.get('state') !== null) back.searchParams.set('state', q.get('state')!);
    const scopes = (q.get('scope') ?? '').split(',');
    if (!scopes.includes('instagram_business_basic')) {
      back.searchParams.set('error', 'invalid_scope');
    } else if (this.consent === 'deny') {
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('error_reason', 'user_denied');
      back.searchParams.set('error_description', 'The user denied your request.');
    } else {
      const code = `AQB${randomBytes(32).toString('base64url')}`;
      this.#codes.issue(code, { redirectUri });
      back.searchParams.set('code', code);
      back.hash = '_';
    }
    return { status: 302, headers: { location: back.toString() } };
  }

  #exchangeCode(request: RecordedRequest): FakeResponse {
    const form = (request.body ?? {}) as Record<string, string>;
    if (form.client_id !== this.appId || form.client_secret !== this.appSecret) {
      return {
        status: 400,
        json: { error_type: 'OAuthException', code: 400, error_message: 'Invalid client_secret' },
      };
    }
    const redeemed =
      form.grant_type === 'authorization_code' ? this.#codes.redeem(form.code, form.redirect_uri) : undefined;
    if (!redeemed || 'problem' in redeemed) {
      return {
        status: 400,
        json: { error_type: 'OAuthException', code: 400, error_message: 'Invalid authorization code' },
      };
    }
    return {
      json: {
        data: [
          {
            access_token: this.issueToken(3600, false),
            user_id: this.account.id,
            permissions: 'instagram_business_basic,instagram_business_content_publish',
          },
        ],
      },
    };
  }

  #longLived(request: RecordedRequest): FakeResponse {
    const q = request.query;
    if (q.get('grant_type') !== 'ig_exchange_token' || q.get('client_secret') !== this.appSecret) {
      return graphErrorResponse(400, { message: 'Invalid client_secret or grant_type', code: 101 });
    }
    const token = this.#token(request);
    if (!isToken(token)) return token;
    if (token.longLived)
      return graphErrorResponse(400, { message: 'The token is already long-lived', code: 100 });
    return this.#ok({ access_token: this.issueToken(), token_type: 'bearer', expires_in: 5_183_944 });
  }

  #refresh(request: RecordedRequest): FakeResponse {
    if (request.query.get('grant_type') !== 'ig_refresh_token') {
      return graphErrorResponse(400, { message: 'Unsupported grant_type', code: 100 });
    }
    const token = this.#token(request);
    if (!isToken(token)) return token;
    if (!token.longLived || Date.now() - token.createdAt < 86_400_000) {
      return graphErrorResponse(400, {
        message: 'The token must be long-lived and at least 24 hours old to refresh',
        code: 100,
      });
    }
    return this.#ok({ access_token: this.issueToken(), token_type: 'bearer', expires_in: 5_184_000 });
  }

  #me(request: RecordedRequest): FakeResponse {
    const token = this.#token(request);
    if (!isToken(token)) return token;
    return this.#ok({
      id: '9' + this.account.id.slice(1),
      user_id: this.account.id,
      username: this.account.username,
      name: this.account.name,
      profile_picture_url: this.account.pictureUrl,
      account_type: 'BUSINESS',
    });
  }

  // --- Content Publishing ---------------------------------------------------------------------

  #limit(request: RecordedRequest, user: string): FakeResponse {
    const token = this.#owner(request, user);
    if (!isToken(token)) return token;
    return this.#ok({
      data: [
        { quota_usage: this.quotaUsage, config: { quota_total: this.quotaTotal, quota_duration: 86_400 } },
      ],
    });
  }

  async #createContainer(request: RecordedRequest, user: string): Promise<FakeResponse> {
    const token = this.#owner(request, user);
    if (!isToken(token)) return token;
    const p = this.#params(request);
    const carouselItem = p.is_carousel_item === 'true';
    const type = p.media_type ?? 'IMAGE';
    const id = this.#id();
    if (type === 'CAROUSEL') {
      const children = (p.children ?? '').split(',').filter(Boolean);
      if (children.length < 2 || children.length > 10) {
        return graphErrorResponse(400, {
          message: 'The carousel must contain 2 to 10 items',
          code: 100,
          error_subcode: 2207023,
        });
      }
      for (const child of children) {
        const item = this.containers.get(child);
        if (!item?.carouselItem || item.owner !== user) {
          return graphErrorResponse(400, { message: `Invalid child ${child}`, code: 100 });
        }
        if (item.status !== 'FINISHED') {
          return graphErrorResponse(400, {
            message: 'Media ID is not available',
            code: 9007,
            error_subcode: 2207027,
          });
        }
      }
      this.containers.set(id, {
        id,
        owner: user,
        mediaType: 'CAROUSEL',
        carouselItem: false,
        children,
        ...(p.caption ? { caption: p.caption } : {}),
        status: 'FINISHED',
        pollsLeft: 0,
        createdAt: Date.now(),
      });
      return this.#ok({ id });
    }
    if (type !== 'IMAGE' && type !== 'VIDEO' && type !== 'REELS') {
      return graphErrorResponse(400, { message: `Unsupported media_type ${type}`, code: 100 });
    }
    if (type === 'VIDEO' && !carouselItem) {
      return graphErrorResponse(400, {
        message: 'The VIDEO media_type is only for carousel items; use REELS',
        code: 100,
        error_subcode: 2207067,
      });
    }
    const url = type === 'IMAGE' ? p.image_url : p.video_url;
    if (!url)
      return graphErrorResponse(400, {
        message: `(#100) ${type === 'IMAGE' ? 'image_url' : 'video_url'} is required`,
        code: 100,
      });
    if ((p.caption?.length ?? 0) > 2200) {
      return graphErrorResponse(400, {
        message: 'The caption is too long',
        code: 100,
        error_subcode: 2207013,
      });
    }
    let media: FetchedMedia | undefined;
    if (this.fetchMedia) {
      media = await fetchMedia(url);
      if (!media) {
        return graphErrorResponse(400, {
          message: "Media download has failed. The media URI doesn't meet our requirements.",
          code: 9004,
          error_subcode: 2207052,
        });
      }
      if (type === 'IMAGE' && media.contentType !== 'image/jpeg') {
        return graphErrorResponse(400, {
          message: 'The image format is not supported. Only JPEG format is supported.',
          code: 9004,
          error_subcode: 2207005,
        });
      }
      if (type !== 'IMAGE' && !media.contentType.startsWith('video/')) {
        return graphErrorResponse(400, {
          message: 'The video format is not supported.',
          code: 352,
          error_subcode: 2207026,
        });
      }
    }
    if (p.alt_text !== undefined && type !== 'IMAGE') {
      return graphErrorResponse(400, {
        message: '(#100) The parameter alt_text is only supported for images',
        code: 100,
      });
    }
    if (p.alt_text !== undefined && [...p.alt_text].length > 1000) {
      return graphErrorResponse(400, {
        message: '(#100) Param alt_text must be at most 1000 characters long',
        code: 100,
      });
    }
    const video = type !== 'IMAGE';
    this.containers.set(id, {
      id,
      owner: user,
      mediaType: type,
      url,
      carouselItem,
      children: [],
      ...(p.caption ? { caption: p.caption } : {}),
      ...(p.alt_text !== undefined ? { altText: p.alt_text } : {}),
      ...(p.share_to_feed !== undefined ? { shareToFeed: p.share_to_feed === 'true' } : {}),
      ...(p.thumb_offset !== undefined ? { thumbOffset: Number(p.thumb_offset) } : {}),
      ...(media ? { media } : {}),
      status: video ? 'IN_PROGRESS' : 'FINISHED',
      pollsLeft: video ? this.videoProcessingPolls : 0,
      createdAt: Date.now(),
    });
    return this.#ok({ id });
  }

  #publish(request: RecordedRequest, user: string): FakeResponse {
    const token = this.#owner(request, user);
    if (!isToken(token)) return token;
    const container = this.containers.get(this.#params(request).creation_id ?? '');
    if (container) expireIfOld(container);
    if (!container || container.owner !== user || container.carouselItem) {
      return graphErrorResponse(400, { message: 'Invalid creation_id', code: 100 });
    }
    if (container.status === 'IN_PROGRESS') {
      return graphErrorResponse(400, {
        message: 'Media ID is not available',
        code: 9007,
        error_subcode: 2207027,
      });
    }
    if (container.status !== 'FINISHED') {
      return graphErrorResponse(400, {
        message: `The container is ${container.status}`,
        code: 9007,
        error_subcode: 2207027,
      });
    }
    if (this.quotaUsage >= this.quotaTotal) {
      return graphErrorResponse(400, {
        message:
          'Application request limit reached: you reached maximum number of posts that is allowed to be published by Content Publishing API.',
        code: 9,
        error_subcode: 2207042,
      });
    }
    container.status = 'PUBLISHED';
    this.quotaUsage++;
    const id = this.#id();
    this.media.push({
      id,
      owner: user,
      containerId: container.id,
      mediaType: container.mediaType === 'REELS' ? 'VIDEO' : container.mediaType,
      ...(container.caption ? { caption: container.caption } : {}),
      children: container.children.map((c) => this.containers.get(c)!),
      permalink: `https://www.instagram.com/p/${randomBytes(8).toString('base64url')}/`,
    });
    if (this.loseNextPublishAnswer) {
      this.loseNextPublishAnswer = false;
      return { drop: true };
    }
    return this.#ok({ id });
  }

  /** Deletes a published media, as the account would. */
  deleteMedia(id: string): void {
    const media = this.media.find((m) => m.id === id);
    if (media) media.deleted = true;
  }

  /** `POST /{ig-media-id}/comments?message=…`: a comment by the account on one of its media. */
  #comment(request: RecordedRequest, mediaId: string): FakeResponse {
    const token = this.#token(request);
    if (!isToken(token)) return token;
    const media = this.media.find((m) => m.id === mediaId && !m.deleted);
    if (!media) {
      return graphUnknownObject(mediaId, 'post');
    }
    const message = this.#params(request).message;
    if (!message)
      return graphErrorResponse(400, { message: '(#100) The parameter message is required', code: 100 });
    const id = this.#id();
    this.comments.push({ id, mediaId, text: message });
    return this.#ok({ id });
  }

  /** The account's media, newest first. */
  #listMedia(request: RecordedRequest, user: string): FakeResponse {
    const token = this.#owner(request, user);
    if (!isToken(token)) return token;
    const limit = Number(request.query.get('limit') ?? 25);
    const data = this.media
      .filter((m) => m.owner === user)
      .reverse()
      .slice(0, limit)
      .map((m) => ({ id: m.id, permalink: m.permalink, media_type: m.mediaType }));
    return this.#ok({ data, paging: { cursors: { before: 'b', after: 'a' } } });
  }

  #object(request: RecordedRequest, id: string): FakeResponse {
    const token = this.#token(request);
    if (!isToken(token)) return token;
    const container = this.containers.get(id);
    if (container) {
      expireIfOld(container);
      if (container.status === 'IN_PROGRESS') {
        if (container.pollsLeft > 0) container.pollsLeft--;
        else {
          container.status = this.nextVideoOutcome;
          this.nextVideoOutcome = 'FINISHED';
        }
      }
      const statusText: Record<string, string> = {
        ERROR: 'Error: 2207026 Unsupported video format',
        EXPIRED: 'Expired: the container was not published within 24 hours',
      };
      return this.#ok({
        id,
        status_code: container.status,
        status: statusText[container.status] ?? container.status,
      });
    }
    const media = this.media.find((m) => m.id === id);
    if (media) return this.#ok({ id, permalink: media.permalink, media_type: media.mediaType });
    if (id === this.account.id) {
      return this.#ok({
        id,
        username: this.account.username,
        name: this.account.name,
        profile_picture_url: this.account.pictureUrl,
        followers_count: this.figures.followers,
      });
    }
    return graphUnknownObject(id, 'get');
  }

  /** `GET /{media}/insights?metric=…`: lifetime figures of a media of the account. */
  #insights(request: RecordedRequest, id: string): FakeResponse {
    const token = this.#token(request);
    if (!isToken(token)) return token;
    const media = this.media.find((m) => m.id === id && !m.deleted);
    if (!media) return graphUnknownObject(id, 'get');
    const names = ['views', 'reach', 'likes', 'comments', 'shares', 'saved'] as const;
    return mediaInsightsAnswer(
      id,
      request.query.get('metric'),
      Object.fromEntries(names.map((n) => [n, this.figures.of(id, n)])),
    );
  }
}

function isToken(value: Token | FakeResponse): value is Token {
  return 'valid' in value;
}

export async function startFakeInstagram(options: FakeInstagramOptions = {}): Promise<FakeInstagram> {
  const fake = new FakeInstagram(options);
  await fake.start();
  return fake;
}

/** A container neither published nor failed within 24 hours of its creation is EXPIRED. */
function expireIfOld(container: FakeContainer): void {
  if (
    (container.status === 'IN_PROGRESS' || container.status === 'FINISHED') &&
    Date.now() - container.createdAt >= 24 * 60 * 60_000
  )
    container.status = 'EXPIRED';
}
