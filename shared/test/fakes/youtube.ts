import { createHash, randomBytes } from 'node:crypto';
import { type FakeResponse, FakeServer, type RecordedRequest } from './fake-server.ts';
import { FakeFigures } from './figures.ts';

/**
 * A fake of the YouTube Data API v3 and Google's OAuth endpoints: token grants (refresh_token,
 * authorization_code with PKCE), the consent redirect, channels.list, resumable videos.insert
 * (308 + Range, 256 KiB chunk alignment, status queries), videoCategories.list, thumbnails.set, videos.list (status and
 * processing details: a new video is `processing` for `processingPolls` lists, then `processed`)
 * and videos.update of the status part (the youtube or youtube.force-ssl scope only), with Google's
 * error bodies and bearer tokens that expire. Use `env()` for the publisher's settings.
 */
export interface FakeYouTubeOptions {
  clientId?: string;
  clientSecret?: string;
  /** A refresh token the fake accepts from the start. */
  refreshToken?: string;
  channel?: Partial<FakeYouTubeChannel> | null;
  /** Lifetime of issued access tokens. Google's: 3599 s. */
  accessTokenTtlSeconds?: number;
  /** Scopes granted to the starting refresh token. */
  scopes?: string[];
  /** False: the channel may not set custom thumbnails (unverified channel) → 403 forbidden. */
  customThumbnails?: boolean;
  /** videos.list calls a new video stays `processing` before it is `processed`. */
  processingPolls?: number;
}

export interface FakeYouTubeChannel {
  id: string;
  title: string;
  customUrl: string;
  thumbnailUrl: string;
  /** `snippet.country`, set by the owner in Studio; absent by default, as on many channels. */
  country?: string;
}

export interface FakeUploadChunk {
  start: number;
  end: number;
  /** What the fake answered: 308 (stored), 200/201 (complete), 400 (refused), 0 (dropped). */
  status: number;
  /** Bytes of this chunk that were stored. */
  stored: number;
}

export interface FakeUploadSession {
  id: string;
  metadata: VideoResourceInput;
  total: number | undefined;
  contentType: string;
  stored: Buffer[];
  storedBytes: number;
  chunks: FakeUploadChunk[];
  statusQueries: number;
  videoId?: string;
}

export interface FakeVideo {
  id: string;
  uploadId: string;
  snippet: Required<Pick<VideoSnippet, 'title' | 'description' | 'categoryId'>> & { tags?: string[] };
  status: { privacyStatus: string; selfDeclaredMadeForKids?: boolean; publishAt?: string };
  contentType: string;
  bytes: Buffer;
  thumbnail?: { contentType: string; bytes: Buffer };
  /** The owner turned comments off: commentThreads.insert answers 403 commentsDisabled. */
  commentsDisabled?: boolean;
  /** Deleted by the channel (`deleteVideo`): commentThreads.insert answers 404 videoNotFound. */
  deleted?: boolean;
  /** videos.list calls left before processing ends. */
  processingPollsLeft: number;
  /** Status changes made by videos.update, in order. */
  statusUpdates: FakeVideo['status'][];
}

export interface FakeYouTubeComment {
  id: string;
  videoId: string;
  channelId: string;
  textOriginal: string;
}

/** A failure for the next data-carrying chunk PUT. */
export type ChunkFailure =
  | { kind: 'drop' /** Bytes of the chunk stored before the connection dies. */; storeBytes?: number }
  | { kind: 'status'; status: number };

interface VideoSnippet {
  title?: unknown;
  description?: unknown;
  tags?: unknown;
  categoryId?: unknown;
}
interface VideoResourceInput {
  snippet?: VideoSnippet;
  status?: { privacyStatus?: unknown; selfDeclaredMadeForKids?: unknown; publishAt?: unknown };
}

export const youTubeUploadScope = 'https://www.googleapis.com/auth/youtube.upload';
export const youTubeReadonlyScope = 'https://www.googleapis.com/auth/youtube.readonly';
/** What commentThreads.insert and videos.update need (or the full youtube scope); `youtube.upload` allows neither. */
export const youTubeForceSslScope = 'https://www.googleapis.com/auth/youtube.force-ssl';
const youTubeFullScope = 'https://www.googleapis.com/auth/youtube';
const chunkQuantum = 256 * 1024;
const maxThumbnailBytes = 2 * 1024 * 1024;
/**
 * videoCategories.list for a region, as YouTube answers it (ids and English titles); videos may
 * only use the `assignable` ones, which are the ones videos.insert accepts.
 */
const videoCategories: { id: string; title: string; assignable: boolean }[] = [
  { id: '1', title: 'Film & Animation', assignable: true },
  { id: '2', title: 'Autos & Vehicles', assignable: true },
  { id: '10', title: 'Music', assignable: true },
  { id: '15', title: 'Pets & Animals', assignable: true },
  { id: '17', title: 'Sports', assignable: true },
  { id: '18', title: 'Short Movies', assignable: false },
  { id: '19', title: 'Travel & Events', assignable: true },
  { id: '20', title: 'Gaming', assignable: true },
  { id: '21', title: 'Videoblogging', assignable: false },
  { id: '22', title: 'People & Blogs', assignable: true },
  { id: '23', title: 'Comedy', assignable: true },
  { id: '24', title: 'Entertainment', assignable: true },
  { id: '25', title: 'News & Politics', assignable: true },
  { id: '26', title: 'Howto & Style', assignable: true },
  { id: '27', title: 'Education', assignable: true },
  { id: '28', title: 'Science & Technology', assignable: true },
  { id: '29', title: 'Nonprofits & Activism', assignable: true },
  { id: '30', title: 'Movies', assignable: false },
  { id: '44', title: 'Trailers', assignable: false },
];
const categories = new Set(videoCategories.filter((c) => c.assignable).map((c) => c.id));

interface Grant {
  clientId: string;
  scope: string;
  revoked: boolean;
}
interface IssuedCode {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  codeChallengeMethod: 'S256' | 'plain';
  scope: string;
  expiresAt: number;
  used: boolean;
}

export class FakeYouTube {
  readonly server = new FakeServer();
  readonly clientId: string;
  readonly clientSecret: string;
  readonly refreshToken: string;
  readonly channel: FakeYouTubeChannel | null;
  readonly sessions = new Map<string, FakeUploadSession>();
  readonly videos: FakeVideo[] = [];
  /** What `part=statistics` reports per video; `followers` is the channel's `subscriberCount`. */
  readonly figures = new FakeFigures<'viewCount' | 'likeCount' | 'commentCount'>();
  /** Ids of videos removed by videos.delete, in order. */
  readonly deletedVideos: string[] = [];
  readonly comments: FakeYouTubeComment[] = [];
  /** The `regionCode` of every videoCategories.list call, in order. */
  readonly categoryRegions: string[] = [];
  accessTokenTtlSeconds: number;
  customThumbnails: boolean;
  processingPolls: number;
  /** How the consent screen answers: the user approves, or denies (`error=access_denied`). */
  consent: 'approve' | 'deny' = 'approve';
  readonly #grants = new Map<string, Grant>();
  readonly #accessTokens = new Map<string, { expiresAt: number; scope: string }>();
  readonly #codes = new Map<string, IssuedCode>();
  readonly #chunkFailures: ChunkFailure[] = [];

  constructor(options: FakeYouTubeOptions = {}) {
    this.clientId = options.clientId ?? 'fake-client-id.apps.googleusercontent.com';
    this.clientSecret = options.clientSecret ?? 'fake-client-secret';
    this.refreshToken = options.refreshToken ?? `1//${randomBytes(24).toString('base64url')}`;
    this.accessTokenTtlSeconds = options.accessTokenTtlSeconds ?? 3599;
    this.customThumbnails = options.customThumbnails ?? true;
    this.processingPolls = options.processingPolls ?? 0;
    this.channel =
      options.channel === null
        ? null
        : {
            id: `UC${randomBytes(16).toString('base64url').slice(0, 22)}`,
            title: 'Fake Channel',
            customUrl: '@fakechannel',
            thumbnailUrl: 'https://yt3.ggpht.example/fake-channel=s800',
            ...options.channel,
          };
    const scopes = options.scopes ?? [youTubeUploadScope, youTubeReadonlyScope, youTubeForceSslScope];
    this.#grants.set(this.refreshToken, { clientId: this.clientId, scope: scopes.join(' '), revoked: false });

    this.server
      .route('POST', /^\/token$/, (r) => this.#token(r))
      .route('GET', /^\/o\/oauth2\/v2\/auth$/, (r) => this.#authorize(r))
      .route('GET', /^\/youtube\/v3\/channels$/, (r) => this.#channels(r))
      .route('GET', /^\/youtube\/v3\/videoCategories$/, (r) => this.#videoCategories(r))
      .route('POST', /^\/upload\/youtube\/v3\/videos$/, (r) => this.#startUpload(r))
      .route('PUT', /^\/upload\/youtube\/v3\/videos$/, (r) => this.#putUpload(r))
      .route('POST', /^\/upload\/youtube\/v3\/thumbnails\/set$/, (r) => this.#setThumbnail(r))
      .route('POST', /^\/youtube\/v3\/commentThreads$/, (r) => this.#insertCommentThread(r))
      .route('GET', /^\/youtube\/v3\/videos$/, (r) => this.#listVideos(r))
      .route('PUT', /^\/youtube\/v3\/videos$/, (r) => this.#updateVideo(r))
      .route('DELETE', /^\/youtube\/v3\/videos$/, (r) => this.#deleteVideo(r));
  }

  get url(): string {
    return this.server.url;
  }
  get apiUrl(): string {
    return `${this.url}/youtube/v3`;
  }
  get uploadUrl(): string {
    return `${this.url}/upload/youtube/v3`;
  }
  get tokenUrl(): string {
    return `${this.url}/token`;
  }
  /** Google's consent page (`https://accounts.google.com/o/oauth2/v2/auth`). */
  get authorizationUrl(): string {
    return `${this.url}/o/oauth2/v2/auth`;
  }

  env(): Record<string, string> {
    return {
      YOUTUBE_API_URL: this.apiUrl,
      YOUTUBE_UPLOAD_URL: this.uploadUrl,
      GOOGLE_OAUTH_TOKEN_URL: this.tokenUrl,
    };
  }

  /** Credentials as an accounts file holds them; `accessToken` is valid for `expiresInSeconds` when asked for. */
  credentials(
    options: { withAccessToken?: boolean; expiresInSeconds?: number } = {},
  ): Record<string, unknown> {
    const base = {
      refreshToken: this.refreshToken,
      clientId: this.clientId,
      clientSecret: this.clientSecret,
    };
    if (!options.withAccessToken) return base;
    const { token, expiresAt } = this.issueAccessToken(options.expiresInSeconds);
    return { ...base, accessToken: token, expiresAt: new Date(expiresAt).toISOString() };
  }

  issueAccessToken(
    expiresInSeconds = this.accessTokenTtlSeconds,
    scope = this.#grants.get(this.refreshToken)!.scope,
  ): { token: string; expiresAt: number } {
    const token = `ya29.${randomBytes(32).toString('base64url')}`;
    const expiresAt = Date.now() + expiresInSeconds * 1000;
    this.#accessTokens.set(token, { expiresAt, scope });
    return { token, expiresAt };
  }

  /** Every access token issued so far stops working (as if revoked or expired early). */
  invalidateAccessTokens(): void {
    this.#accessTokens.clear();
  }

  /** The user revoked access, or the token expired (unverified apps: 7 days): refresh answers invalid_grant. */
  revokeRefreshToken(token = this.refreshToken): void {
    const grant = this.#grants.get(token);
    if (grant) grant.revoked = true;
  }

  /**
   * What the consent page does when the user approves: a single-use code bound to the client,
   * redirect URI and PKCE challenge, valid 10 minutes.
   */
  issueAuthorizationCode(options: {
    redirectUri: string;
    codeChallenge: string;
    codeChallengeMethod?: 'S256' | 'plain';
    scope?: string;
    clientId?: string;
  }): string {
    const code = `4/${randomBytes(24).toString('base64url')}`;
    this.#codes.set(code, {
      clientId: options.clientId ?? this.clientId,
      redirectUri: options.redirectUri,
      codeChallenge: options.codeChallenge,
      codeChallengeMethod: options.codeChallengeMethod ?? 'S256',
      scope: options.scope ?? [youTubeUploadScope, youTubeReadonlyScope, youTubeForceSslScope].join(' '),
      expiresAt: Date.now() + 10 * 60_000,
      used: false,
    });
    return code;
  }

  /** The next data-carrying chunk PUT(s) fail this way, in order. */
  failNextChunk(...failures: ChunkFailure[]): void {
    this.#chunkFailures.push(...failures);
  }

  /** The next request to a path fails with Google's error body for `reason`. */
  failNext(options: {
    path?: RegExp;
    status: number;
    reason: string;
    message?: string;
    times?: number;
  }): void {
    this.server.inject({
      ...(options.path ? { path: options.path } : {}),
      times: options.times ?? 1,
      ...googleErrorResponse(
        options.status,
        options.reason,
        options.message ?? `Fake failure: ${options.reason}`,
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

  // --- OAuth ---------------------------------------------------------------------------------

  #token(request: RecordedRequest): FakeResponse {
    const form = (request.body ?? {}) as Record<string, string>;
    if (!String(request.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded')) {
      return tokenError(
        400,
        'invalid_request',
        'Invalid request: expected application/x-www-form-urlencoded',
      );
    }
    const basic = basicAuth(request.headers.authorization);
    const clientId = basic?.id ?? form.client_id;
    const clientSecret = basic?.secret ?? form.client_secret;
    if (clientId !== this.clientId)
      return tokenError(401, 'invalid_client', 'The OAuth client was not found.');
    if (clientSecret !== this.clientSecret) return tokenError(401, 'invalid_client', 'Unauthorized');

    if (form.grant_type === 'refresh_token') {
      const grant = form.refresh_token ? this.#grants.get(form.refresh_token) : undefined;
      if (!grant || grant.revoked || grant.clientId !== clientId) {
        return tokenError(400, 'invalid_grant', 'Token has been expired or revoked.');
      }
      const { token } = this.issueAccessToken(this.accessTokenTtlSeconds, grant.scope);
      return {
        json: {
          access_token: token,
          expires_in: this.accessTokenTtlSeconds,
          scope: grant.scope,
          token_type: 'Bearer',
        },
      };
    }
    if (form.grant_type === 'authorization_code') {
      const issued = form.code ? this.#codes.get(form.code) : undefined;
      if (!issued || issued.used || issued.expiresAt < Date.now() || issued.clientId !== clientId) {
        return tokenError(400, 'invalid_grant', 'Malformed auth code.');
      }
      issued.used = true;
      if (form.redirect_uri !== issued.redirectUri)
        return tokenError(400, 'redirect_uri_mismatch', 'Bad Request');
      if (!form.code_verifier) return tokenError(400, 'invalid_grant', 'Missing code verifier.');
      const expected =
        issued.codeChallengeMethod === 'S256'
          ? createHash('sha256').update(form.code_verifier).digest('base64url')
          : form.code_verifier;
      if (expected !== issued.codeChallenge)
        return tokenError(400, 'invalid_grant', 'Invalid code verifier.');
      const refreshToken = `1//${randomBytes(24).toString('base64url')}`;
      this.#grants.set(refreshToken, { clientId, scope: issued.scope, revoked: false });
      const { token } = this.issueAccessToken(this.accessTokenTtlSeconds, issued.scope);
      return {
        json: {
          access_token: token,
          expires_in: this.accessTokenTtlSeconds,
          refresh_token: refreshToken,
          scope: issued.scope,
          token_type: 'Bearer',
        },
      };
    }
    return tokenError(400, 'unsupported_grant_type', `Invalid grant_type: ${form.grant_type ?? ''}`);
  }

  /** The consent page, answered at once as `consent` says: a redirect back with `code` or `error`. */
  #authorize(request: RecordedRequest): FakeResponse {
    const q = request.query;
    const redirectUri = q.get('redirect_uri');
    if (q.get('client_id') !== this.clientId) return { status: 401, text: 'Error 401: invalid_client' };
    if (!redirectUri) return { status: 400, text: 'Error 400: invalid_request (redirect_uri missing)' };
    const back = new URL(redirectUri);
    const state = q.get('state');
    if (state !== null) back.searchParams.set('state', state);
    if (q.get('response_type') !== 'code' || !q.get('scope')) {
      back.searchParams.set('error', 'invalid_request');
    } else if (this.consent === 'deny') {
      back.searchParams.set('error', 'access_denied');
    } else {
      const challenge = q.get('code_challenge');
      const method = q.get('code_challenge_method') === 'S256' ? 'S256' : 'plain';
      if (!challenge) return { status: 400, text: 'Error 400: invalid_request (code_challenge missing)' };
      back.searchParams.set(
        'code',
        this.issueAuthorizationCode({
          redirectUri,
          codeChallenge: challenge,
          codeChallengeMethod: method,
          scope: q.get('scope')!,
        }),
      );
      back.searchParams.set('scope', q.get('scope')!);
    }
    return { status: 302, headers: { location: back.toString() } };
  }

  /** Bearer check as Google does it: a missing, unknown or expired token is 401; a missing scope 403. */
  #authenticate(request: RecordedRequest, scopes: string[]): FakeResponse | undefined {
    const header = String(request.headers.authorization ?? '');
    const token = header.startsWith('Bearer ') ? header.slice(7) : '';
    const known = this.#accessTokens.get(token);
    if (!known || known.expiresAt <= Date.now()) {
      const unauthorized = googleErrorResponse(
        401,
        'authError',
        'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
        'global',
        'UNAUTHENTICATED',
      );
      return {
        ...unauthorized,
        headers: { 'www-authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"' },
      };
    }
    const granted = known.scope.split(' ');
    if (!scopes.some((scope) => granted.includes(scope)) && !granted.includes(youTubeFullScope)) {
      return googleErrorResponse(
        403,
        'insufficientPermissions',
        'Request had insufficient authentication scopes.',
        'global',
        'PERMISSION_DENIED',
      );
    }
    return undefined;
  }

  // --- Data API ------------------------------------------------------------------------------

  /** videoCategories.list: `part=snippet` and exactly one of `id` or `regionCode`; any valid token may ask. */
  #videoCategories(request: RecordedRequest): FakeResponse {
    const denied = this.#authenticate(request, [
      youTubeReadonlyScope,
      youTubeUploadScope,
      youTubeForceSslScope,
    ]);
    if (denied) return denied;
    if (request.query.get('part') !== 'snippet')
      return googleErrorResponse(400, 'required', 'Required parameter: part', 'global');
    const region = request.query.get('regionCode');
    const ids = request.query.get('id');
    if (Boolean(region) === Boolean(ids))
      return googleErrorResponse(
        400,
        'missingRequiredParameter',
        'No filter selected. Expected one of: id, regionCode',
      );
    if (region) this.categoryRegions.push(region);
    const wanted = ids ? new Set(ids.split(',')) : undefined;
    return {
      json: {
        kind: 'youtube#videoCategoryListResponse',
        etag: randomBytes(8).toString('hex'),
        items: videoCategories
          .filter((c) => !wanted || wanted.has(c.id))
          .map((c) => ({
            kind: 'youtube#videoCategory',
            etag: randomBytes(8).toString('hex'),
            id: c.id,
            snippet: { title: c.title, assignable: c.assignable, channelId: 'UCBR8-60-B28hp2BmDPdntcQ' },
          })),
      },
    };
  }

  #channels(request: RecordedRequest): FakeResponse {
    const denied = this.#authenticate(request, [youTubeReadonlyScope, youTubeUploadScope]);
    if (denied) return denied;
    if (!request.query.get('part'))
      return googleErrorResponse(400, 'required', 'Required parameter: part', 'global');
    if (request.query.get('mine') !== 'true')
      return googleErrorResponse(400, 'missingRequiredParameter', 'No filter selected.');
    const items = this.channel
      ? [
          {
            kind: 'youtube#channel',
            etag: randomBytes(8).toString('hex'),
            id: this.channel.id,
            snippet: {
              title: this.channel.title,
              description: '',
              customUrl: this.channel.customUrl,
              publishedAt: '2020-01-01T00:00:00Z',
              thumbnails: {
                default: { url: `${this.channel.thumbnailUrl}-s88`, width: 88, height: 88 },
                medium: { url: `${this.channel.thumbnailUrl}-s240`, width: 240, height: 240 },
                high: { url: this.channel.thumbnailUrl, width: 800, height: 800 },
              },
              localized: { title: this.channel.title, description: '' },
              ...(this.channel.country ? { country: this.channel.country } : {}),
            },
            ...((request.query.get('part') ?? '').split(',').includes('statistics')
              ? {
                  statistics: {
                    viewCount: '0',
                    subscriberCount: String(this.figures.followers),
                    hiddenSubscriberCount: false,
                    videoCount: String(this.videos.length),
                  },
                }
              : {}),
          },
        ]
      : [];
    return {
      json: {
        kind: 'youtube#channelListResponse',
        etag: randomBytes(8).toString('hex'),
        pageInfo: { totalResults: items.length, resultsPerPage: 5 },
        ...(items.length ? { items } : {}),
      },
    };
  }

  #startUpload(request: RecordedRequest): FakeResponse {
    const denied = this.#authenticate(request, [youTubeUploadScope]);
    if (denied) return denied;
    if (request.query.get('uploadType') !== 'resumable') {
      return googleErrorResponse(400, 'invalidParameter', 'This fake supports only uploadType=resumable');
    }
    if (!this.channel)
      return googleErrorResponse(401, 'youtubeSignupRequired', 'Unauthorized', 'youtube.header');
    const metadata = (request.body ?? {}) as VideoResourceInput;
    const invalid = metadataError(metadata);
    if (invalid) return invalid;
    const declared = request.headers['x-upload-content-length'];
    const total = declared === undefined ? undefined : Number(declared);
    const session: FakeUploadSession = {
      id: randomBytes(24).toString('base64url'),
      metadata,
      total,
      contentType: String(request.headers['x-upload-content-type'] ?? 'application/octet-stream'),
      stored: [],
      storedBytes: 0,
      chunks: [],
      statusQueries: 0,
    };
    this.sessions.set(session.id, session);
    const location = `${this.uploadUrl}/videos?uploadType=resumable&part=${encodeURIComponent(request.query.get('part') ?? '')}&upload_id=${session.id}`;
    return { status: 200, headers: { location, 'x-guploader-uploadid': session.id } };
  }

  /** The upload id in the session URL is the credential here, as with Google's sessions. */
  #putUpload(request: RecordedRequest): FakeResponse {
    const session = this.sessions.get(request.query.get('upload_id') ?? '');
    if (!session) return { status: 404, text: 'Not Found' };
    const range = String(request.headers['content-range'] ?? '');
    const query = range.match(/^bytes \*\/(\d+|\*)$/);
    if (query && request.rawBody.length === 0) {
      session.statusQueries++;
      return this.#progress(session);
    }
    const match = range.match(/^bytes (\d+)-(\d+)\/(\d+|\*)$/);
    if (!match) return { status: 400, text: 'Failed to parse Content-Range header.' };
    const start = Number(match[1]);
    const end = Number(match[2]);
    const total = match[3] === '*' ? session.total : Number(match[3]);
    const body = request.rawBody;
    const chunk: FakeUploadChunk = { start, end, status: 400, stored: 0 };
    session.chunks.push(chunk);
    if (session.videoId) {
      // Already complete: Google answers with the finished video and stores nothing more.
      chunk.status = 201;
      return this.#progress(session);
    }
    if (total === undefined || (session.total !== undefined && total !== session.total)) {
      return {
        status: 400,
        text: 'Invalid request. The Content-Range total does not match X-Upload-Content-Length.',
      };
    }
    session.total = total;
    if (end < start || body.length !== end - start + 1 || end >= total) {
      return { status: 400, text: 'Invalid request. The Content-Range does not match the request body.' };
    }
    if (start !== session.storedBytes) {
      return {
        status: 400,
        text: `Invalid request. According to the Content-Range header, the upload offset is ${start} byte(s), which does not match the ${session.storedBytes} byte(s) already uploaded.`,
      };
    }
    const isLast = end === total - 1;
    if (!isLast && body.length % chunkQuantum !== 0) {
      return {
        status: 400,
        text: `Invalid request. The number of bytes uploaded is required to be a multiple of ${chunkQuantum}, except for the final request.`,
      };
    }

    const failure = this.#chunkFailures.shift();
    if (failure?.kind === 'drop') {
      const keep = Math.min(failure.storeBytes ?? 0, body.length);
      this.#store(session, body.subarray(0, keep));
      Object.assign(chunk, { status: 0, stored: keep });
      return { drop: true };
    }
    if (failure?.kind === 'status') {
      chunk.status = failure.status;
      return googleErrorResponse(failure.status, 'backendError', 'Backend Error', 'global');
    }
    this.#store(session, body);
    chunk.stored = body.length;
    const answer = this.#progress(session);
    chunk.status = answer.status ?? 200;
    return answer;
  }

  #store(session: FakeUploadSession, bytes: Buffer): void {
    if (bytes.length === 0) return;
    session.stored.push(Buffer.from(bytes));
    session.storedBytes += bytes.length;
    if (session.storedBytes === session.total && !session.videoId) this.#createVideo(session);
  }

  #progress(session: FakeUploadSession): FakeResponse {
    if (session.videoId) {
      const video = this.videos.find((v) => v.id === session.videoId)!;
      return { status: 201, json: videoResource(video, this.channel!) };
    }
    return {
      status: 308,
      headers: session.storedBytes > 0 ? { range: `bytes=0-${session.storedBytes - 1}` } : {},
    };
  }

  #createVideo(session: FakeUploadSession): void {
    const { snippet = {}, status = {} } = session.metadata;
    const video: FakeVideo = {
      id: randomBytes(8).toString('base64url').slice(0, 11),
      uploadId: session.id,
      snippet: {
        title: String(snippet.title),
        description: typeof snippet.description === 'string' ? snippet.description : '',
        categoryId: typeof snippet.categoryId === 'string' ? snippet.categoryId : '22',
        ...(Array.isArray(snippet.tags) ? { tags: snippet.tags as string[] } : {}),
      },
      status: {
        privacyStatus: typeof status.privacyStatus === 'string' ? status.privacyStatus : 'public',
        ...(typeof status.selfDeclaredMadeForKids === 'boolean'
          ? { selfDeclaredMadeForKids: status.selfDeclaredMadeForKids }
          : {}),
        ...(typeof status.publishAt === 'string' ? { publishAt: status.publishAt } : {}),
      },
      contentType: session.contentType,
      bytes: Buffer.concat(session.stored),
      processingPollsLeft: this.processingPolls,
      statusUpdates: [],
    };
    session.videoId = video.id;
    this.videos.push(video);
  }

  /** Deletes a video, as its channel would. */
  deleteVideo(id: string): void {
    const video = this.videos.find((v) => v.id === id);
    if (video) video.deleted = true;
  }

  /** `commentThreads.insert` (`part=snippet`): a top-level comment by the channel, with the documented errors. */
  #insertCommentThread(request: RecordedRequest): FakeResponse {
    const denied = this.#authenticate(request, [youTubeForceSslScope]);
    if (denied) return denied;
    if (request.query.get('part') !== 'snippet')
      return googleErrorResponse(400, 'required', 'Required parameter: part', 'global');
    const snippet = (
      request.body as
        | { snippet?: { videoId?: unknown; topLevelComment?: { snippet?: { textOriginal?: unknown } } } }
        | undefined
    )?.snippet;
    const text = snippet?.topLevelComment?.snippet?.textOriginal;
    if (typeof text !== 'string' || text === '') {
      return googleErrorResponse(
        400,
        'commentTextRequired',
        'The comment resource that is being inserted must specify a value for the snippet.topLevelComment.snippet.textOriginal property.',
        'youtube.comment',
      );
    }
    if (text.length > 10_000) {
      return googleErrorResponse(
        400,
        'commentTextTooLong',
        'The comment resource that is being inserted or updated contains too many characters in the snippet.topLevelComment.snippet.textOriginal property.',
        'youtube.comment',
      );
    }
    const video = this.videos.find((v) => v.id === snippet?.videoId && !v.deleted);
    if (!video) {
      return googleErrorResponse(
        404,
        'videoNotFound',
        'The video identified by the videoId parameter could not be found.',
        'youtube.commentThread',
      );
    }
    if (video.commentsDisabled) {
      return googleErrorResponse(
        403,
        'commentsDisabled',
        'The video identified by the videoId parameter has disabled comments.',
        'youtube.commentThread',
      );
    }
    const id = `Ug${randomBytes(15).toString('base64url')}4AaABAg`;
    const channelId = this.channel?.id ?? '';
    this.comments.push({ id, videoId: video.id, channelId, textOriginal: text });
    return {
      json: {
        kind: 'youtube#commentThread',
        etag: randomBytes(8).toString('hex'),
        id,
        snippet: {
          channelId,
          videoId: video.id,
          topLevelComment: {
            kind: 'youtube#comment',
            id,
            snippet: { channelId, videoId: video.id, textDisplay: text, textOriginal: text },
          },
          canReply: true,
          totalReplyCount: 0,
          isPublic: true,
        },
      },
    };
  }

  /** videos.list by id: the status part, and processing details that advance with each call. */
  #listVideos(request: RecordedRequest): FakeResponse {
    const denied = this.#authenticate(request, [youTubeReadonlyScope, youTubeForceSslScope]);
    if (denied) return denied;
    const ids = (request.query.get('id') ?? '').split(',').filter(Boolean);
    if (ids.length > 50)
      return googleErrorResponse(400, 'invalidFilters', 'The request specifies more than 50 video ids.');
    const parts = (request.query.get('part') ?? '').split(',');
    // YouTube leaves a deleted video out of the list; statistics are strings, as the API sends them.
    const statistics = (id: string) => ({
      statistics: {
        viewCount: String(this.figures.of(id, 'viewCount')),
        likeCount: String(this.figures.of(id, 'likeCount')),
        favoriteCount: '0',
        commentCount: String(this.figures.of(id, 'commentCount')),
      },
    });
    const items = this.videos
      .filter((v) => ids.includes(v.id) && !v.deleted)
      .map((video) => {
        const processing = video.processingPollsLeft > 0;
        if (processing) video.processingPollsLeft--;
        const resource = videoResource(video, this.channel!) as { status: Record<string, unknown> };
        return {
          ...resource,
          status: { ...resource.status, uploadStatus: processing ? 'uploaded' : 'processed' },
          processingDetails: { processingStatus: processing ? 'processing' : 'succeeded' },
          ...(parts.includes('statistics') ? statistics(video.id) : {}),
        };
      });
    return { json: { kind: 'youtube#videoListResponse', items, pageInfo: { totalResults: items.length } } };
  }

  /**
   * videos.update with `part=status`: the whole status part is replaced (properties left out are
   * reset), `publishAt` only with `private`, and only the youtube or youtube.force-ssl scope may.
   */
  #updateVideo(request: RecordedRequest): FakeResponse {
    const denied = this.#authenticate(request, [youTubeForceSslScope]);
    if (denied) return denied;
    if (request.query.get('part') !== 'status')
      return googleErrorResponse(400, 'unexpectedPart', 'The fake supports part=status only.');
    const body = (request.body ?? {}) as { id?: unknown; status?: VideoResourceInput['status'] };
    const video = this.videos.find((v) => v.id === body.id);
    if (!video)
      return googleErrorResponse(
        404,
        'videoNotFound',
        'The video that you are trying to update cannot be found.',
        'youtube.video',
      );
    const status = body.status ?? {};
    const privacy = status.privacyStatus;
    if (typeof privacy !== 'string' || !['public', 'unlisted', 'private'].includes(privacy))
      return googleErrorResponse(
        400,
        'invalidVideoMetadata',
        'The request metadata is invalid.',
        'youtube.video',
      );
    if (status.publishAt !== undefined) {
      const at = Date.parse(String(status.publishAt));
      if (Number.isNaN(at) || at <= Date.now() || privacy !== 'private')
        return googleErrorResponse(
          400,
          'invalidPublishAt',
          'The request metadata specifies an invalid scheduled publishing time.',
          'youtube.video',
        );
    }
    video.status = {
      privacyStatus: privacy,
      ...(typeof status.selfDeclaredMadeForKids === 'boolean'
        ? { selfDeclaredMadeForKids: status.selfDeclaredMadeForKids }
        : {}),
      ...(typeof status.publishAt === 'string' ? { publishAt: status.publishAt } : {}),
    };
    video.statusUpdates.push(video.status);
    return { json: videoResource(video, this.channel!) };
  }

  /**
   * videos.delete (`DELETE /youtube/v3/videos?id=`): 204 with no body; the `youtube`,
   * `youtube.force-ssl` or `youtubepartner` scope; 404 `videoNotFound` for an unknown id, 403
   * `forbidden` for another channel's video. The fake has one channel, so every video is its own.
   */
  #deleteVideo(request: RecordedRequest): FakeResponse {
    const denied = this.#authenticate(request, [youTubeForceSslScope]);
    if (denied) return denied;
    const index = this.videos.findIndex((v) => v.id === request.query.get('id'));
    if (index < 0)
      return googleErrorResponse(
        404,
        'videoNotFound',
        'The video that you are trying to delete cannot be found.',
        'youtube.video',
      );
    this.deletedVideos.push(this.videos[index]!.id);
    this.videos.splice(index, 1);
    return { status: 204 };
  }

  #setThumbnail(request: RecordedRequest): FakeResponse {
    const denied = this.#authenticate(request, [youTubeUploadScope]);
    if (denied) return denied;
    const video = this.videos.find((v) => v.id === request.query.get('videoId'));
    if (!video)
      return googleErrorResponse(
        404,
        'videoNotFound',
        'The video that you are trying to update cannot be found.',
        'youtube.thumbnail',
      );
    if (!this.customThumbnails) {
      return googleErrorResponse(
        403,
        'forbidden',
        'The authenticated user doesnt have permissions to upload and set custom video thumbnails.',
        'youtube.thumbnail',
      );
    }
    const body = request.rawBody;
    if (body.length === 0)
      return googleErrorResponse(
        400,
        'mediaBodyRequired',
        'The request does not include the image content.',
        'youtube.thumbnail',
      );
    if (body.length > maxThumbnailBytes) {
      return googleErrorResponse(413, 'uploadTooLarge', `Media larger than: ${maxThumbnailBytes}`, 'global');
    }
    const type = sniffImage(body);
    if (!type)
      return googleErrorResponse(
        400,
        'invalidImage',
        'The provided image content is invalid.',
        'youtube.thumbnail',
      );
    video.thumbnail = { contentType: type, bytes: Buffer.from(body) };
    const base = `https://i.ytimg.example/vi/${video.id}`;
    return {
      json: {
        kind: 'youtube#thumbnailSetResponse',
        etag: randomBytes(8).toString('hex'),
        items: [
          {
            default: { url: `${base}/default.jpg`, width: 120, height: 90 },
            medium: { url: `${base}/mqdefault.jpg`, width: 320, height: 180 },
            high: { url: `${base}/hqdefault.jpg`, width: 480, height: 360 },
          },
        ],
      },
    };
  }
}

/** videos.insert's checks on the metadata, with YouTube's reasons and messages. */
function metadataError(metadata: VideoResourceInput): FakeResponse | undefined {
  const { snippet, status } = metadata;
  const title = snippet?.title;
  if (typeof title !== 'string' || title.trim() === '' || [...title].length > 100 || /[<>]/.test(title)) {
    return googleErrorResponse(
      400,
      'invalidTitle',
      'The request metadata specifies an invalid or empty video title.',
      'youtube.video',
    );
  }
  const description = snippet?.description;
  if (
    description !== undefined &&
    (typeof description !== 'string' || Buffer.byteLength(description) > 5000 || /[<>]/.test(description))
  ) {
    return googleErrorResponse(
      400,
      'invalidDescription',
      'The request metadata specifies an invalid video description.',
      'youtube.video',
    );
  }
  const tags = snippet?.tags;
  if (tags !== undefined) {
    const valid =
      Array.isArray(tags) &&
      tags.every((t) => typeof t === 'string' && !/[<>]/.test(t)) &&
      (tags as string[]).reduce(
        (n, t) => n + [...t].length + (t.includes(' ') ? 2 : 0),
        Math.max(0, tags.length - 1),
      ) <= 500;
    if (!valid)
      return googleErrorResponse(
        400,
        'invalidTags',
        'The request metadata specifies invalid video keywords.',
        'youtube.video',
      );
  }
  if (snippet?.categoryId !== undefined && !categories.has(String(snippet.categoryId))) {
    return googleErrorResponse(
      400,
      'invalidCategoryId',
      'The <code>snippet.categoryId</code> property specifies an invalid category ID.',
      'youtube.video',
    );
  }
  const privacy = status?.privacyStatus;
  if (privacy !== undefined && !['public', 'unlisted', 'private'].includes(String(privacy))) {
    return googleErrorResponse(
      400,
      'invalidVideoMetadata',
      'The request metadata is invalid.',
      'youtube.video',
    );
  }
  if (status?.publishAt !== undefined) {
    const at = Date.parse(String(status.publishAt));
    if (Number.isNaN(at) || at <= Date.now() || privacy !== 'private') {
      return googleErrorResponse(
        400,
        'invalidPublishAt',
        'The request metadata specifies an invalid scheduled publishing time.',
        'youtube.video',
      );
    }
  }
  return undefined;
}

function videoResource(video: FakeVideo, channel: FakeYouTubeChannel): unknown {
  return {
    kind: 'youtube#video',
    etag: randomBytes(8).toString('hex'),
    id: video.id,
    snippet: {
      publishedAt: new Date().toISOString(),
      channelId: channel.id,
      title: video.snippet.title,
      description: video.snippet.description,
      thumbnails: {
        default: { url: `https://i.ytimg.example/vi/${video.id}/default.jpg`, width: 120, height: 90 },
      },
      channelTitle: channel.title,
      ...(video.snippet.tags ? { tags: video.snippet.tags } : {}),
      categoryId: video.snippet.categoryId,
      liveBroadcastContent: 'none',
      localized: { title: video.snippet.title, description: video.snippet.description },
    },
    status: {
      uploadStatus: 'uploaded',
      privacyStatus: video.status.privacyStatus,
      license: 'youtube',
      embeddable: true,
      publicStatsViewable: true,
      ...(video.status.selfDeclaredMadeForKids === undefined
        ? {}
        : {
            selfDeclaredMadeForKids: video.status.selfDeclaredMadeForKids,
            madeForKids: video.status.selfDeclaredMadeForKids,
          }),
      ...(video.status.publishAt ? { publishAt: video.status.publishAt } : {}),
    },
  };
}

/** Google's error body: `{ error: { code, message, errors: [{ message, domain, reason }], status } }`. */
export function googleErrorResponse(
  status: number,
  reason: string,
  message: string,
  domain = 'youtube.api',
  statusName?: string,
): FakeResponse {
  const names: Record<number, string> = {
    400: 'INVALID_ARGUMENT',
    401: 'UNAUTHENTICATED',
    403: 'PERMISSION_DENIED',
    404: 'NOT_FOUND',
    413: 'INVALID_ARGUMENT',
    429: 'RESOURCE_EXHAUSTED',
    500: 'INTERNAL',
    503: 'UNAVAILABLE',
  };
  return {
    status,
    json: {
      error: {
        code: status,
        message,
        errors: [{ message, domain, reason }],
        ...(statusName || names[status] ? { status: statusName ?? names[status] } : {}),
      },
    },
  };
}

function tokenError(status: number, error: string, description: string): FakeResponse {
  return { status, json: { error, error_description: description } };
}

function basicAuth(header: string | string[] | undefined): { id: string; secret: string } | undefined {
  const value = String(header ?? '');
  if (!value.startsWith('Basic ')) return undefined;
  const [id, secret] = Buffer.from(value.slice(6), 'base64').toString('utf8').split(':');
  return id !== undefined && secret !== undefined
    ? { id: decodeURIComponent(id), secret: decodeURIComponent(secret) }
    : undefined;
}

function sniffImage(bytes: Buffer): string | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  return undefined;
}

export async function startFakeYouTube(options: FakeYouTubeOptions = {}): Promise<FakeYouTube> {
  const fake = new FakeYouTube(options);
  await fake.start();
  return fake;
}
