import { randomBytes } from 'node:crypto';
import { type FakeResponse, FakeServer, type RecordedRequest } from './fake-server.ts';
import { FakeFigures } from './figures.ts';
import {
  AuthorizationCodes,
  type GraphErrorFields,
  graphErrorResponse,
  graphTokenProblem,
  graphUnknownObject,
  mediaInsightsAnswer,
} from './meta-graph.ts';

/**
 * A fake of the Threads Graph API as Postwave uses it: the consent redirect, code → short-lived
 * token → long-lived token (`th_exchange_token`), `th_refresh_token`, `/me`, media containers
 * (TEXT, IMAGE, VIDEO, CAROUSEL with items) whose media the fake really downloads from the given
 * URLs (with `alt_text`, and `reply_to_id` for replies, listed under `/{user}/replies`),
 * container status polling (IN_PROGRESS → FINISHED | ERROR), `threads_publish` with the
 * 250-posts-per-24-hours quota, `threads_publishing_limit` and permalinks. Errors use the Graph
 * API body `{ error: { message, type, code, error_subcode?, fbtrace_id } }`.
 */
export interface FakeThreadsOptions {
  appId?: string;
  appSecret?: string;
  user?: Partial<FakeThreadsUser>;
  /** Status polls a video container stays IN_PROGRESS after its download. */
  processingPolls?: number;
  /** Posts per 24 hours (the API's quota). */
  quotaTotal?: number;
  /** Download media from the container URLs (true), or pretend every URL answers (false). */
  fetchMedia?: boolean;
}

export interface FakeThreadsUser {
  id: string;
  username: string;
  name: string;
  pictureUrl: string;
}

export interface FakeThreadsContainer {
  id: string;
  userId: string;
  mediaType: 'TEXT' | 'IMAGE' | 'VIDEO' | 'CAROUSEL';
  text?: string;
  url?: string;
  /** `alt_text` of an IMAGE or VIDEO container. */
  altText?: string;
  replyToId?: string;
  isCarouselItem: boolean;
  children: string[];
  params: Record<string, string>;
  status: 'IN_PROGRESS' | 'FINISHED' | 'PUBLISHED' | 'ERROR' | 'EXPIRED';
  errorMessage?: string;
  pollsLeft: number;
  downloaded?: { contentType: string; bytes: Buffer };
  download?: Promise<void>;
}

export interface FakeThreadsPost {
  id: string;
  containerId: string;
  userId: string;
  mediaType: string;
  text?: string;
  children: string[];
  /** The post this one replies to: listed under `/{user}/replies`, not `/{user}/threads`. */
  replyToId?: string;
  permalink: string;
  publishedAt: number;
  /** Deleted by its author (`deletePost`): replies to it are refused. */
  deleted?: boolean;
}

interface Token {
  userId: string;
  kind: 'short' | 'long';
  issuedAt: number;
  expiresAt: number;
}

const replyControls = new Set([
  'everyone',
  'accounts_you_follow',
  'mentioned_only',
  'parent_post_author_only',
  'followers_only',
]);

/** Graph's error body (meta-graph.ts) in the argument order the Threads tests use. */
export function graphError(
  status: number,
  code: number,
  message: string,
  extra: Omit<GraphErrorFields, 'message' | 'code'> = {},
): FakeResponse {
  return graphErrorResponse(status, { message, code, ...extra });
}

const mediaId = () =>
  `1789${Math.floor(Math.random() * 1e13)
    .toString()
    .padStart(13, '0')}`;

export class FakeThreads {
  readonly server = new FakeServer();
  readonly appId: string;
  readonly appSecret: string;
  readonly user: FakeThreadsUser;
  readonly containers = new Map<string, FakeThreadsContainer>();
  readonly posts: FakeThreadsPost[] = [];
  /** What media insights report per post; `followers` is the profile's `followers_count` insight. */
  readonly figures = new FakeFigures<'views' | 'likes' | 'replies' | 'reposts' | 'quotes' | 'shares'>();
  processingPolls: number;
  quotaTotal: number;
  fetchMedia: boolean;
  consent: 'approve' | 'deny' = 'approve';
  /** Published posts counted against the quota beyond those in `posts` (to spend it in tests). */
  extraQuotaUsage = 0;
  readonly #tokens = new Map<string, Token>();
  readonly #codes = new AuthorizationCodes<{ redirectUri: string }>();
  #losePublishAnswer = false;

  constructor(options: FakeThreadsOptions = {}) {
    this.appId = options.appId ?? '1234567890123456';
    this.appSecret = options.appSecret ?? 'fake-threads-app-secret';
    this.user = {
      id: '25000000000000001',
      username: 'fakethreads',
      name: 'Fake Threads',
      pictureUrl: 'https://scontent.cdninstagram.example/fake.jpg',
      ...options.user,
    };
    this.processingPolls = options.processingPolls ?? 1;
    this.quotaTotal = options.quotaTotal ?? 250;
    this.fetchMedia = options.fetchMedia ?? true;
    this.server
      .route('GET', /^\/oauth\/authorize$/, (r) => this.#authorize(r))
      .route('POST', /^\/oauth\/access_token$/, (r) => this.#exchangeCode(r))
      .route('GET', /^\/access_token$/, (r) => this.#longLived(r))
      .route('GET', /^\/refresh_access_token$/, (r) => this.#refresh(r))
      .route('GET', /^\/v1\.0\/me$/, (r) => this.#authed(r, (t) => this.#me(r, t)))
      .route('GET', /^\/v1\.0\/([^/]+)\/threads_publishing_limit$/, (r, m) =>
        this.#authed(r, (t) => this.#owner(m[1]!, t) ?? this.#limit(r)),
      )
      .route('POST', /^\/v1\.0\/([^/]+)\/threads$/, (r, m) =>
        this.#authed(r, (t) => this.#owner(m[1]!, t) ?? this.#createContainer(r, t)),
      )
      .route('GET', /^\/v1\.0\/([^/]+)\/(threads|replies)$/, (r, m) =>
        this.#authed(r, (t) => this.#owner(m[1]!, t) ?? this.#list(r, t, m[2] as 'threads' | 'replies')),
      )
      .route('POST', /^\/v1\.0\/([^/]+)\/threads_publish$/, (r, m) =>
        this.#authed(r, (t) => this.#owner(m[1]!, t) ?? this.#publish(r, t)),
      )
      .route('GET', /^\/v1\.0\/(\d+)\/insights$/, (r, m) =>
        this.#authed(r, (t) => this.#mediaInsights(r, t, m[1]!)),
      )
      .route('GET', /^\/v1\.0\/([^/]+)\/threads_insights$/, (r, m) =>
        this.#authed(r, (t) => this.#owner(m[1]!, t) ?? this.#userInsights(r)),
      )
      .route('GET', /^\/v1\.0\/(\d+)$/, (r, m) => this.#authed(r, (t) => this.#object(r, t, m[1]!)));
  }

  get url(): string {
    return this.server.url;
  }
  get authorizeUrl(): string {
    return `${this.url}/oauth/authorize`;
  }

  env(): Record<string, string> {
    return {
      THREADS_API_URL: this.url,
      THREADS_OAUTH_AUTHORIZE_URL: this.authorizeUrl,
      THREADS_APP_ID: this.appId,
      THREADS_APP_SECRET: this.appSecret,
    };
  }

  /** A long-lived token as the accounts file holds it; `ageMs` back-dates its issue (refresh needs 24 h). */
  credentials(
    options: { expiresInMs?: number; ageMs?: number; withExpiry?: boolean } = {},
  ): Record<string, unknown> {
    const { token, expiresAt } = this.issueToken('long', options.expiresInMs, options.ageMs);
    return {
      accessToken: token,
      ...(options.withExpiry ? { expiresAt: new Date(expiresAt).toISOString() } : {}),
    };
  }

  issueToken(kind: 'short' | 'long', expiresInMs?: number, ageMs = 0): { token: string; expiresAt: number } {
    const token = `TH${randomBytes(40).toString('base64url')}`;
    const expiresAt = Date.now() + (expiresInMs ?? (kind === 'long' ? 60 * 86_400_000 : 3_600_000));
    this.#tokens.set(token, { userId: this.user.id, kind, issuedAt: Date.now() - ageMs, expiresAt });
    return { token, expiresAt };
  }

  /** Every token stops working (the user removed the app, or changed the password). */
  revokeTokens(): void {
    this.#tokens.clear();
  }

  /** The next publish goes through, but the connection drops before its answer. */
  loseNextPublishAnswer(): void {
    this.#losePublishAnswer = true;
  }

  /** Deletes a post, as its author would. */
  deletePost(id: string): void {
    const post = this.posts.find((p) => p.id === id);
    if (post) post.deleted = true;
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

  // --- OAuth ---------------------------------------------------------------------------------

  #authorize(request: RecordedRequest): FakeResponse {
    const q = request.query;
    if (q.get('client_id') !== this.appId) return { status: 400, text: 'Invalid App ID' };
    const redirectUri = q.get('redirect_uri');
    if (!redirectUri) return { status: 400, text: 'redirect_uri is required' };
    const back = new URL(redirectUri);
    const state = q.get('state');
    if (state !== null) back.searchParams.set('state', state);
    const scopes = (q.get('scope') ?? '').split(',');
    if (q.get('response_type') !== 'code' || !scopes.includes('threads_basic')) {
      back.searchParams.set('error', 'invalid_request');
      back.searchParams.set('error_description', 'threads_basic is required');
    } else if (this.consent === 'deny') {
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('error_reason', 'user_denied');
      back.searchParams.set('error_description', 'Permissions error');
    } else {
      const code = randomBytes(40).toString('base64url');
      this.#codes.issue(code, { redirectUri });
      back.searchParams.set('code', code);
    }
    // Threads appends "#_" to the redirect.
    return { status: 302, headers: { location: `${back.toString()}#_` } };
  }

  #exchangeCode(request: RecordedRequest): FakeResponse {
    const form = {
      ...Object.fromEntries(request.query),
      ...((request.body ?? {}) as Record<string, string>),
    };
    if (form.client_id !== this.appId)
      return graphError(400, 101, 'Error validating application. Invalid application ID.');
    if (form.client_secret !== this.appSecret) return graphError(400, 1, 'Error validating client secret.');
    if (form.grant_type !== 'authorization_code') return graphError(400, 100, 'Unsupported grant_type');
    const redeemed = this.#codes.redeem(form.code, form.redirect_uri);
    if ('problem' in redeemed && redeemed.problem !== 'redirect_mismatch') {
      return graphError(400, 100, 'Invalid verification code format.', { error_subcode: 36008 });
    }
    if ('problem' in redeemed) {
      return graphError(
        400,
        100,
        'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request',
        { error_subcode: 36008 },
      );
    }
    const { token } = this.issueToken('short');
    return { json: { access_token: token, user_id: Number(this.user.id) } };
  }

  #longLived(request: RecordedRequest): FakeResponse {
    const q = request.query;
    if (q.get('grant_type') !== 'th_exchange_token') return graphError(400, 100, 'Unsupported grant_type');
    if (q.get('client_secret') !== this.appSecret)
      return graphError(400, 1, 'Error validating client secret.');
    const known = this.#tokens.get(q.get('access_token') ?? '');
    if (!known || known.expiresAt <= Date.now() || known.kind !== 'short') {
      return graphError(400, 190, 'Invalid OAuth access token - Cannot parse access token');
    }
    const { token } = this.issueToken('long');
    return { json: { access_token: token, token_type: 'bearer', expires_in: 5_183_944 } };
  }

  #refresh(request: RecordedRequest): FakeResponse {
    const q = request.query;
    if (q.get('grant_type') !== 'th_refresh_token') return graphError(400, 100, 'Unsupported grant_type');
    const known = this.#tokens.get(q.get('access_token') ?? '');
    if (!known || known.expiresAt <= Date.now()) {
      return graphError(400, 190, 'Error validating access token: Session has expired.', {
        error_subcode: 463,
      });
    }
    if (known.kind !== 'long' || Date.now() - known.issuedAt < 86_400_000) {
      return graphError(
        400,
        100,
        'Long-lived access tokens can be refreshed once they are at least 24 hours old.',
      );
    }
    const { token } = this.issueToken('long');
    return { json: { access_token: token, token_type: 'bearer', expires_in: 5_183_944 } };
  }

  // --- Graph API -----------------------------------------------------------------------------

  async #authed(
    request: RecordedRequest,
    handle: (token: Token) => FakeResponse | Promise<FakeResponse>,
  ): Promise<FakeResponse> {
    const raw =
      request.query.get('access_token') ?? (request.body as Record<string, string> | undefined)?.access_token;
    if (!raw)
      return graphError(
        400,
        190,
        'An active access token must be used to query information about the current user.',
      );
    const known = this.#tokens.get(raw);
    return graphTokenProblem(known) ?? handle(known!);
  }

  #owner(userId: string, token: Token): FakeResponse | undefined {
    if (userId === 'me' || userId === token.userId) return undefined;
    return graphUnknownObject(userId, 'post');
  }

  #params(request: RecordedRequest): Record<string, string> {
    return { ...((request.body ?? {}) as Record<string, string>), ...Object.fromEntries(request.query) };
  }

  #me(request: RecordedRequest, token: Token): FakeResponse {
    const fields = (request.query.get('fields') ?? 'id').split(',');
    const all: Record<string, string> = {
      id: token.userId,
      username: this.user.username,
      name: this.user.name,
      threads_profile_picture_url: this.user.pictureUrl,
    };
    return { json: Object.fromEntries(fields.filter((f) => f in all).map((f) => [f, all[f]])) };
  }

  #quotaUsage(): number {
    const since = Date.now() - 86_400_000;
    return this.posts.filter((p) => p.publishedAt > since).length + this.extraQuotaUsage;
  }

  #limit(request: RecordedRequest): FakeResponse {
    const fields = (request.query.get('fields') ?? 'quota_usage').split(',');
    const entry: Record<string, unknown> = {};
    if (fields.includes('quota_usage')) entry.quota_usage = this.#quotaUsage();
    if (fields.includes('config')) entry.config = { quota_total: this.quotaTotal, quota_duration: 86_400 };
    return { json: { data: [entry] } };
  }

  #createContainer(request: RecordedRequest, token: Token): FakeResponse {
    const p = this.#params(request);
    const type = p.media_type;
    const isItem = p.is_carousel_item === 'true';
    const invalid = (message: string, subcode?: number) =>
      graphError(400, 100, message, subcode === undefined ? {} : { error_subcode: subcode });
    if (!type || !['TEXT', 'IMAGE', 'VIDEO', 'CAROUSEL'].includes(type)) {
      return invalid(
        '(#100) The parameter media_type is required and must be one of TEXT, IMAGE, VIDEO, CAROUSEL',
      );
    }
    if (p.text !== undefined && countThreads(p.text) > 500) {
      return invalid('(#100) Param text must be at most 500 characters long.');
    }
    if (p.text !== undefined && linkCount(p.text) > 5) {
      return invalid('THREADS_API__LINK_LIMIT_EXCEEDED: Posts may contain at most 5 links.');
    }
    if (p.reply_control !== undefined && !replyControls.has(p.reply_control)) {
      return invalid(
        '(#100) Param reply_control must be one of {everyone, accounts_you_follow, mentioned_only, parent_post_author_only, followers_only}',
      );
    }
    if (
      p.reply_to_id !== undefined &&
      !this.posts.some((post) => post.id === p.reply_to_id && !post.deleted)
    ) {
      return invalid('(#100) The reply_to_id is not a valid Threads media id.');
    }
    if (p.alt_text !== undefined) {
      if (type !== 'IMAGE' && type !== 'VIDEO')
        return invalid('(#100) The parameter alt_text is only supported for IMAGE and VIDEO media.');
      if ([...p.alt_text].length > 1000)
        return invalid('(#100) Param alt_text must be at most 1000 characters long.');
    }
    if (type === 'TEXT' && !p.text) return invalid('(#100) The parameter text is required for TEXT posts.');
    const url = type === 'IMAGE' ? p.image_url : type === 'VIDEO' ? p.video_url : undefined;
    if ((type === 'IMAGE' || type === 'VIDEO') && !url) {
      return invalid(`(#100) The parameter ${type === 'IMAGE' ? 'image_url' : 'video_url'} is required.`);
    }
    let children: string[] = [];
    if (type === 'CAROUSEL') {
      children = (p.children ?? '').split(',').filter(Boolean);
      if (children.length < 2 || children.length > 20) {
        return invalid('(#100) Carousels need between 2 and 20 children.', 2207003);
      }
      for (const child of children) {
        const item = this.containers.get(child);
        if (!item || item.userId !== token.userId || !item.isCarouselItem) {
          return invalid(`(#100) Invalid child ${child}: not a carousel item of this profile.`, 2207001);
        }
        if (item.status !== 'FINISHED') {
          return invalid('(#100) The media is not ready to be used in a carousel.', 2207027);
        }
      }
    }
    const container: FakeThreadsContainer = {
      id: mediaId(),
      userId: token.userId,
      mediaType: type as FakeThreadsContainer['mediaType'],
      ...(p.text === undefined ? {} : { text: p.text }),
      ...(url === undefined ? {} : { url }),
      ...(p.alt_text === undefined ? {} : { altText: p.alt_text }),
      ...(p.reply_to_id === undefined ? {} : { replyToId: p.reply_to_id }),
      isCarouselItem: isItem,
      children,
      params: p,
      status: type === 'TEXT' || type === 'CAROUSEL' ? 'FINISHED' : 'IN_PROGRESS',
      pollsLeft: type === 'VIDEO' ? this.processingPolls : 0,
    };
    if (url) container.download = this.#download(container, url);
    this.containers.set(container.id, container);
    return { json: { id: container.id } };
  }

  /** Threads downloads the media from the URL it was given; an unreachable URL ends in ERROR. */
  async #download(container: FakeThreadsContainer, url: string): Promise<void> {
    if (!this.fetchMedia) {
      container.downloaded = {
        contentType: container.mediaType === 'VIDEO' ? 'video/mp4' : 'image/jpeg',
        bytes: Buffer.alloc(0),
      };
      return;
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const contentType = response.headers.get('content-type') ?? '';
      const expected = container.mediaType === 'VIDEO' ? /^video\/(mp4|quicktime)/ : /^image\/(jpeg|png)/;
      if (!expected.test(contentType)) throw new Error(`unsupported ${contentType}`);
      container.downloaded = { contentType, bytes: Buffer.from(await response.arrayBuffer()) };
    } catch {
      container.status = 'ERROR';
      container.errorMessage = container.mediaType === 'VIDEO' ? 'FAILED_DOWNLOADING_VIDEO' : 'UNKNOWN';
    }
  }

  /** `GET /{media}/insights?metric=…`: lifetime figures of one of the caller's posts. */
  #mediaInsights(request: RecordedRequest, token: Token, id: string): FakeResponse {
    const post = this.posts.find((p) => p.id === id && p.userId === token.userId);
    if (!post || post.deleted) return graphUnknownObject(id, 'get');
    const names = ['views', 'likes', 'replies', 'reposts', 'quotes', 'shares'] as const;
    return mediaInsightsAnswer(
      id,
      request.query.get('metric'),
      Object.fromEntries(names.map((n) => [n, this.figures.of(id, n)])),
    );
  }

  /** `GET /{user}/threads_insights?metric=followers_count`: a total value, as Threads answers it. */
  #userInsights(request: RecordedRequest): FakeResponse {
    if (request.query.get('metric') !== 'followers_count')
      return graphError(400, 100, '(#100) This fake only knows metric=followers_count');
    return {
      json: {
        data: [
          {
            name: 'followers_count',
            period: 'day',
            title: 'followers_count',
            description: "The number of followers on the user's profile.",
            total_value: { value: this.figures.followers },
            id: `${this.user.id}/insights/followers_count/day`,
          },
        ],
      },
    };
  }

  async #object(request: RecordedRequest, token: Token, id: string): Promise<FakeResponse> {
    const fields = (request.query.get('fields') ?? 'id').split(',');
    const post = this.posts.find((p) => p.id === id);
    if (post) {
      const all: Record<string, unknown> = {
        id,
        permalink: post.permalink,
        media_type: post.mediaType,
        text: post.text,
      };
      return { json: Object.fromEntries(fields.filter((f) => f in all).map((f) => [f, all[f]])) };
    }
    const container = this.containers.get(id);
    if (!container || container.userId !== token.userId) {
      return graphUnknownObject(id, 'get');
    }
    await container.download;
    if (container.status === 'IN_PROGRESS') {
      if (container.pollsLeft > 0) container.pollsLeft--;
      else container.status = 'FINISHED';
    }
    const answer: Record<string, unknown> = { id };
    if (fields.includes('status')) answer.status = container.status;
    if (fields.includes('error_message') && container.errorMessage)
      answer.error_message = container.errorMessage;
    return { json: answer };
  }

  #publish(request: RecordedRequest, token: Token): FakeResponse {
    const p = this.#params(request);
    const container = p.creation_id ? this.containers.get(p.creation_id) : undefined;
    if (!container || container.userId !== token.userId || container.isCarouselItem) {
      return graphError(400, 100, '(#100) The parameter creation_id is not a valid media container.', {
        error_subcode: 4279009,
      });
    }
    if (this.#quotaUsage() >= this.quotaTotal) {
      return graphError(
        400,
        4,
        'Application request limit reached: the profile reached its publishing limit (250 posts in 24 hours).',
        {
          error_subcode: 2207042,
        },
      );
    }
    if (container.status !== 'FINISHED') {
      return graphError(
        400,
        9007,
        'Media ID is not available: the media is not ready for publishing, please wait for a moment.',
        {
          error_subcode: 2207027,
        },
      );
    }
    container.status = 'PUBLISHED';
    const id = mediaId();
    const code = randomBytes(8).toString('base64url');
    this.posts.push({
      id,
      containerId: container.id,
      userId: token.userId,
      mediaType:
        container.mediaType === 'CAROUSEL'
          ? 'CAROUSEL_ALBUM'
          : `${container.mediaType}${container.mediaType === 'TEXT' ? '_POST' : ''}`,
      ...(container.text === undefined ? {} : { text: container.text }),
      children: container.children,
      ...(container.replyToId === undefined ? {} : { replyToId: container.replyToId }),
      permalink: `https://www.threads.net/@${this.user.username}/post/${code}`,
      publishedAt: Date.now(),
    });
    if (this.#losePublishAnswer) {
      this.#losePublishAnswer = false;
      return { drop: true };
    }
    return { json: { id } };
  }

  /** `GET /{user}/threads` (the profile's posts) or `/{user}/replies` (its replies), newest first. */
  #list(request: RecordedRequest, token: Token, edge: 'threads' | 'replies' = 'threads'): FakeResponse {
    const fields = (request.query.get('fields') ?? 'id').split(',');
    const limit = Math.min(100, Number(request.query.get('limit') ?? 25));
    const posts = this.posts
      .filter((p) => p.userId === token.userId && !p.deleted)
      .filter((p) => (edge === 'replies') === (p.replyToId !== undefined))
      .slice(-limit)
      .reverse();
    return {
      json: {
        data: posts.map((p) => {
          const all: Record<string, unknown> = {
            id: p.id,
            text: p.text,
            permalink: p.permalink,
            media_type: p.mediaType,
            timestamp: new Date(p.publishedAt).toISOString().replace(/\.\d{3}Z$/, '+0000'),
          };
          return Object.fromEntries(fields.filter((f) => all[f] !== undefined).map((f) => [f, all[f]]));
        }),
        paging: { cursors: { before: 'b', after: 'a' } },
      },
    };
  }
}

function countThreads(text: string): number {
  const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  let length = 0;
  for (const { segment } of segmenter.segment(text)) {
    length += /\p{Extended_Pictographic}|\p{Regional_Indicator}/u.test(segment)
      ? Buffer.byteLength(segment, 'utf8')
      : [...segment].length;
  }
  return length;
}

function linkCount(text: string): number {
  return new Set((text.match(/\bhttps?:\/\/[^\s<>"]+|\bwww\.[^\s<>"]+/giu) ?? []).map((u) => u.toLowerCase()))
    .size;
}

export async function startFakeThreads(options: FakeThreadsOptions = {}): Promise<FakeThreads> {
  const fake = new FakeThreads(options);
  await fake.start();
  return fake;
}
