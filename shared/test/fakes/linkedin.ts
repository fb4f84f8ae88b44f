import { randomBytes } from 'node:crypto';
import { type FakeResponse, FakeServer, type RecordedRequest } from './fake-server.ts';
import { FakeFigures } from './figures.ts';

/**
 * A fake of LinkedIn's versioned REST API and OAuth 2.0 endpoints: the authorization redirect,
 * `accessToken` (authorization_code and refresh_token grants), `/v2/userinfo`,
 * `organizationAcls`, `organizations`, the Images and Videos upload flows (initialize, PUT,
 * multi-part with ETags, finalize, processing states), `/rest/posts` (image `altText` up to
 * 4086 characters) and comments (`/rest/socialActions/{urn}/comments`), with LinkedIn's error
 * body `{ status, serviceErrorCode, code, message }`, `LinkedIn-Version` and Rest.li header
 * checks, expiring and revocable tokens, duplicate detection and the "little text" parser that
 * silently cuts a commentary at its first unescaped reserved character.
 */
export interface FakeLinkedInOptions {
  clientId?: string;
  clientSecret?: string;
  member?: Partial<FakeLinkedInMember>;
  /** Organizations by numeric id; `admin` says whether the member administers it. */
  organizations?: Record<string, { name: string; vanityName?: string; admin?: boolean }>;
  /** Bytes per video upload part (LinkedIn: 4 MiB). */
  videoPartBytes?: number;
  /** Status polls answered PROCESSING before a finalized video becomes AVAILABLE. */
  videoProcessingPolls?: number;
  /** Grant refresh tokens (LinkedIn does so only for approved apps). */
  refreshTokens?: boolean;
}

export interface FakeLinkedInMember {
  id: string;
  name: string;
  picture: string;
}

export interface FakeLinkedInPost {
  urn: string;
  author: string;
  /** The commentary as sent. */
  commentary: string;
  /** What LinkedIn shows: the little text parsed, cut short at an unescaped reserved character. */
  text: string;
  visibility: string;
  content?: {
    media?: { id: string; altText?: string };
    multiImage?: { images: { id: string; altText?: string }[] };
  };
  isReshareDisabledByAuthor: boolean;
  /** Deleted by its author (`deletePost`): comments on it answer 404. */
  deleted?: boolean;
}

export interface FakeLinkedInComment {
  urn: string;
  id: string;
  actor: string;
  object: string;
  text: string;
}

interface Token {
  scopes: string[];
  expiresAt: number;
  revoked: boolean;
}
interface FakeImage {
  urn: string;
  owner: string;
  status: 'WAITING_UPLOAD' | 'AVAILABLE';
  bytes?: Buffer;
}
interface FakeVideo {
  urn: string;
  owner: string;
  size: number;
  partBytes: number;
  parts: Map<number, { etag: string; bytes: Buffer }>;
  uploadToken: string;
  status: 'WAITING_UPLOAD' | 'PROCESSING' | 'AVAILABLE' | 'PROCESSING_FAILED';
  pollsLeft: number;
  bytes?: Buffer;
}

const reserved = new Set(['\\', '|', '{', '}', '@', '[', ']', '(', ')', '<', '>', '#', '*', '_', '~']);

/** LinkedIn's little-text reading of a commentary: escapes resolved, templates kept, cut at the first stray reserved character. */
export function parseLittleText(commentary: string): string {
  let out = '';
  for (let i = 0; i < commentary.length; i++) {
    const c = commentary[i]!;
    if (c === '\\') {
      const next = commentary[i + 1];
      if (next !== undefined && reserved.has(next)) {
        out += next;
        i++;
        continue;
      }
      return out;
    }
    if (c === '{') {
      const hashtag = commentary.slice(i).match(/^\{hashtag\|\\#\|([^{}|]+)\}/);
      if (hashtag) {
        out += `#${hashtag[1]}`;
        i += hashtag[0].length - 1;
        continue;
      }
      return out;
    }
    if (c === '@') {
      const mention = commentary.slice(i).match(/^@\[([^\]]+)\]\((urn:li:[a-z]+:[A-Za-z0-9_-]+)\)/);
      if (mention) {
        out += mention[1];
        i += mention[0].length - 1;
        continue;
      }
      return out;
    }
    if (reserved.has(c)) return out;
    out += c;
  }
  return out;
}

export class FakeLinkedIn {
  readonly server = new FakeServer();
  readonly clientId: string;
  readonly clientSecret: string;
  readonly member: FakeLinkedInMember;
  readonly organizations: Record<string, { name: string; vanityName?: string; admin?: boolean }>;
  readonly posts: FakeLinkedInPost[] = [];
  /** What `GET /rest/socialActions/{urn}` reports per post. */
  readonly figures = new FakeFigures<'likes' | 'comments'>();
  readonly comments: FakeLinkedInComment[] = [];
  readonly images = new Map<string, FakeImage>();
  readonly videos = new Map<string, FakeVideo>();
  /** How the consent screen answers. */
  consent: 'approve' | 'deny' = 'approve';
  videoPartBytes: number;
  videoProcessingPolls: number;
  /** The next finalized video fails processing. */
  failNextVideoProcessing = false;
  /** The next post is created but its answer never arrives (the connection drops). */
  loseNextPostAnswer = false;
  refreshTokens: boolean;
  readonly #tokens = new Map<string, Token>();
  readonly #refresh = new Map<string, { scopes: string[]; revoked: boolean }>();
  readonly #codes = new Map<string, { redirectUri: string; scopes: string[]; used: boolean }>();

  constructor(options: FakeLinkedInOptions = {}) {
    this.clientId = options.clientId ?? '86fakeclientid';
    this.clientSecret = options.clientSecret ?? 'fake-linkedin-secret';
    this.member = {
      id: `${randomBytes(6).toString('base64url')}`,
      name: 'Ada Lovelace',
      picture: 'https://media.licdn.example/ada.jpg',
      ...options.member,
    };
    this.organizations = options.organizations ?? {
      '2414183': { name: 'Analytical Engines Ltd', vanityName: 'analytical-engines', admin: true },
      '999999': { name: 'Somebody Else Inc', admin: false },
    };
    this.videoPartBytes = options.videoPartBytes ?? 4 * 1024 * 1024;
    this.videoProcessingPolls = options.videoProcessingPolls ?? 1;
    this.refreshTokens = options.refreshTokens ?? true;

    this.server
      .route('GET', /^\/oauth\/v2\/authorization$/, (r) => this.#authorize(r))
      .route('POST', /^\/oauth\/v2\/accessToken$/, (r) => this.#accessToken(r))
      .route('GET', /^\/v2\/userinfo$/, (r) => this.#userinfo(r))
      .route('GET', /^\/rest\/organizationAcls$/, (r) => this.#acls(r))
      .route('GET', /^\/rest\/organizations\/(\d+)$/, (r, m) => this.#organization(r, m[1]!))
      .route('POST', /^\/rest\/images$/, (r) => this.#initializeImage(r))
      .route('PUT', /^\/dms-uploads\/image\/([^/]+)$/, (r, m) => this.#putImage(r, m[1]!))
      .route('GET', /^\/rest\/images\/([^/]+)$/, (r, m) => this.#getImage(r, decodeURIComponent(m[1]!)))
      .route('POST', /^\/rest\/videos$/, (r) => this.#videoAction(r))
      .route('PUT', /^\/dms-uploads\/video\/([^/]+)\/(\d+)$/, (r, m) =>
        this.#putVideoPart(r, m[1]!, Number(m[2])),
      )
      .route('GET', /^\/rest\/videos\/([^/]+)$/, (r, m) => this.#getVideo(r, decodeURIComponent(m[1]!)))
      .route('POST', /^\/rest\/posts$/, (r) => this.#createPost(r))
      .route('GET', /^\/rest\/socialActions\/([^/]+)$/, (r, m) =>
        this.#socialActions(r, decodeURIComponent(m[1]!)),
      )
      .route('POST', /^\/rest\/socialActions\/([^/]+)\/comments$/, (r, m) =>
        this.#createComment(r, decodeURIComponent(m[1]!)),
      );
  }

  get url(): string {
    return this.server.url;
  }
  get oauthUrl(): string {
    return `${this.url}/oauth/v2`;
  }
  get memberUrn(): string {
    return `urn:li:person:${this.member.id}`;
  }

  env(): Record<string, string> {
    return {
      LINKEDIN_API_URL: this.url,
      LINKEDIN_OAUTH_URL: this.oauthUrl,
      LINKEDIN_CLIENT_ID: this.clientId,
      LINKEDIN_CLIENT_SECRET: this.clientSecret,
      LINKEDIN_VIDEO_POLL_INTERVAL_MS: '5',
    };
  }

  /** An access token (60 days unless told) with member and organization scopes. */
  issueAccessToken(options: { expiresInSeconds?: number; scopes?: string[] } = {}): {
    token: string;
    expiresAt: number;
  } {
    const token = `AQV${randomBytes(30).toString('base64url')}`;
    const expiresAt = Date.now() + (options.expiresInSeconds ?? 5_184_000) * 1000;
    this.#tokens.set(token, {
      scopes: options.scopes ?? [
        'openid',
        'profile',
        'w_member_social',
        'w_organization_social',
        'r_organization_admin',
      ],
      expiresAt,
      revoked: false,
    });
    return { token, expiresAt };
  }

  issueRefreshToken(scopes = ['openid', 'profile', 'w_member_social']): string {
    const token = `AQX${randomBytes(30).toString('base64url')}`;
    this.#refresh.set(token, { scopes, revoked: false });
    return token;
  }

  /** Credentials as an accounts file holds them. */
  credentials(options: { expiresInSeconds?: number; scopes?: string[] } = {}): Record<string, unknown> {
    return { accessToken: this.issueAccessToken(options).token };
  }

  /** The member revoked the app: every token fails with REVOKED_ACCESS_TOKEN. */
  revokeAll(): void {
    for (const t of this.#tokens.values()) t.revoked = true;
    for (const t of this.#refresh.values()) t.revoked = true;
  }

  /** The next request(s) to a path answer LinkedIn's error body. */
  failNext(options: {
    path?: RegExp;
    status: number;
    code: string;
    message: string;
    serviceErrorCode?: number;
    times?: number;
    headers?: Record<string, string>;
  }): void {
    this.server.inject({
      ...(options.path ? { path: options.path } : {}),
      times: options.times ?? 1,
      ...linkedInErrorResponse(options.status, options.code, options.message, options.serviceErrorCode),
      ...(options.headers ? { headers: options.headers } : {}),
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

  // --- OAuth -----------------------------------------------------------------------------------

  #authorize(request: RecordedRequest): FakeResponse {
    const q = request.query;
    const redirectUri = q.get('redirect_uri');
    if (q.get('client_id') !== this.clientId || !redirectUri) {
      return {
        status: 400,
        text: 'Invalid redirect_uri or client_id. This value must match a URL registered with the API Key.',
      };
    }
    const back = new URL(redirectUri);
    const state = q.get('state');
    if (state !== null) back.searchParams.set('state', state);
    const scopes = (q.get('scope') ?? '').split(/[ ,]+/).filter(Boolean);
    if (q.get('response_type') !== 'code' || scopes.length === 0) {
      back.searchParams.set('error', 'invalid_request');
    } else if (this.consent === 'deny') {
      back.searchParams.set('error', 'user_cancelled_authorize');
      back.searchParams.set('error_description', 'The user cancelled the authorization');
    } else {
      const code = `AQT${randomBytes(24).toString('base64url')}`;
      this.#codes.set(code, { redirectUri, scopes, used: false });
      back.searchParams.set('code', code);
    }
    return { status: 302, headers: { location: back.toString() } };
  }

  #accessToken(request: RecordedRequest): FakeResponse {
    const form = (request.body ?? {}) as Record<string, string>;
    if (form.client_id !== this.clientId || form.client_secret !== this.clientSecret) {
      return {
        status: 401,
        json: { error: 'invalid_client', error_description: 'Client authentication failed' },
      };
    }
    let scopes: string[];
    if (form.grant_type === 'authorization_code') {
      const issued = form.code ? this.#codes.get(form.code) : undefined;
      if (!issued || issued.used) {
        return {
          status: 400,
          json: {
            error: 'invalid_request',
            error_description: 'Unable to retrieve access token: authorization code not found',
          },
        };
      }
      issued.used = true;
      if (form.redirect_uri !== issued.redirectUri) {
        return {
          status: 400,
          json: {
            error: 'invalid_redirect_uri',
            error_description:
              'Unable to retrieve access token: appid/redirect uri/code verifier does not match authorization code',
          },
        };
      }
      scopes = issued.scopes;
    } else if (form.grant_type === 'refresh_token') {
      const grant = form.refresh_token ? this.#refresh.get(form.refresh_token) : undefined;
      if (!grant || grant.revoked) {
        return {
          status: 400,
          json: { error: 'invalid_request', error_description: 'The provided refresh token is invalid' },
        };
      }
      scopes = grant.scopes;
    } else {
      return {
        status: 400,
        json: { error: 'unsupported_grant_type', error_description: 'grant_type is not supported' },
      };
    }
    const { token } = this.issueAccessToken({ scopes });
    return {
      json: {
        access_token: token,
        expires_in: 5_184_000,
        ...(this.refreshTokens
          ? { refresh_token: this.issueRefreshToken(scopes), refresh_token_expires_in: 31_536_000 }
          : {}),
        scope: scopes.join(','),
        token_type: 'Bearer',
      },
    };
  }

  // --- Checks ----------------------------------------------------------------------------------

  #authenticate(request: RecordedRequest, anyOf: string[]): FakeResponse | undefined {
    const header = String(request.headers.authorization ?? '');
    const token = this.#tokens.get(header.startsWith('Bearer ') ? header.slice(7) : '');
    if (!token) return linkedInErrorResponse(401, 'INVALID_ACCESS_TOKEN', 'Invalid access token', 65600);
    if (token.revoked) {
      return linkedInErrorResponse(
        401,
        'REVOKED_ACCESS_TOKEN',
        'The token used in the request has been revoked by the user',
        65601,
      );
    }
    if (token.expiresAt <= Date.now()) {
      return linkedInErrorResponse(
        401,
        'EXPIRED_ACCESS_TOKEN',
        'The token used in the request has expired',
        65602,
      );
    }
    if (anyOf.length > 0 && !anyOf.some((s) => token.scopes.includes(s))) {
      return linkedInErrorResponse(
        403,
        'ACCESS_DENIED',
        `Not enough permissions to access: ${request.method} ${request.path}`,
        100,
      );
    }
    return undefined;
  }

  /** `/rest` resources need a `LinkedIn-Version` (YYYYMM) that is still served. */
  #versioned(request: RecordedRequest, restli = false): FakeResponse | undefined {
    const version = String(request.headers['linkedin-version'] ?? '');
    if (!version) {
      return linkedInErrorResponse(
        400,
        'VERSION_MISSING',
        'A version must be present. Please specify a version by adding the LinkedIn-Version header.',
      );
    }
    if (!/^\d{6}(\.\d{2})?$/.test(version)) {
      return linkedInErrorResponse(400, 'INVALID_VERSION', `Invalid version format: ${version}`);
    }
    if (Number(version.slice(0, 6)) < 202401) {
      return linkedInErrorResponse(426, 'NONEXISTENT_VERSION', `Requested version ${version} is not active`);
    }
    if (restli && request.headers['x-restli-protocol-version'] !== '2.0.0') {
      return linkedInErrorResponse(
        400,
        'ILLEGAL_ARGUMENT',
        'Rest.li protocol version 2.0.0 is required (X-Restli-Protocol-Version)',
      );
    }
    return undefined;
  }

  #canPostAs(author: string): boolean {
    if (author === this.memberUrn) return true;
    const org = author.match(/^urn:li:organization:(\d+)$/)?.[1];
    return org !== undefined && this.organizations[org]?.admin === true;
  }

  #authorScope(author: string): string[] {
    return author.startsWith('urn:li:organization:') ? ['w_organization_social'] : ['w_member_social'];
  }

  // --- Profile ---------------------------------------------------------------------------------

  #userinfo(request: RecordedRequest): FakeResponse {
    const denied = this.#authenticate(request, ['openid', 'profile']);
    if (denied) return denied;
    const [given, ...family] = this.member.name.split(' ');
    return {
      json: {
        sub: this.member.id,
        name: this.member.name,
        given_name: given,
        family_name: family.join(' '),
        picture: this.member.picture,
        locale: { country: 'GB', language: 'en' },
      },
    };
  }

  #acls(request: RecordedRequest): FakeResponse {
    const denied =
      this.#versioned(request) ??
      this.#authenticate(request, ['r_organization_admin', 'rw_organization_admin']);
    if (denied) return denied;
    if (request.query.get('q') !== 'roleAssignee') {
      return linkedInErrorResponse(400, 'ILLEGAL_ARGUMENT', 'Unsupported finder');
    }
    const role = request.query.get('role');
    const elements = Object.entries(this.organizations)
      .filter(([, o]) => o.admin && (!role || role === 'ADMINISTRATOR'))
      .map(([id]) => ({
        roleAssignee: this.memberUrn,
        role: 'ADMINISTRATOR',
        state: 'APPROVED',
        organization: `urn:li:organization:${id}`,
      }));
    return { json: { paging: { start: 0, count: 10, links: [], total: elements.length }, elements } };
  }

  #organization(request: RecordedRequest, id: string): FakeResponse {
    const denied = this.#versioned(request) ?? this.#authenticate(request, []);
    if (denied) return denied;
    const org = this.organizations[id];
    if (!org) return linkedInErrorResponse(404, 'NOT_FOUND', `Organization ${id} not found`);
    return { json: { id: Number(id), localizedName: org.name, vanityName: org.vanityName ?? `org-${id}` } };
  }

  // --- Images ----------------------------------------------------------------------------------

  #initializeImage(request: RecordedRequest): FakeResponse {
    if (request.query.get('action') !== 'initializeUpload')
      return linkedInErrorResponse(400, 'ILLEGAL_ARGUMENT', 'Unknown action');
    const owner =
      (request.body as { initializeUploadRequest?: { owner?: string } } | undefined)?.initializeUploadRequest
        ?.owner ?? '';
    const denied = this.#versioned(request, true) ?? this.#authenticate(request, this.#authorScope(owner));
    if (denied) return denied;
    if (!this.#canPostAs(owner))
      return linkedInErrorResponse(403, 'ACCESS_DENIED', `Not enough permissions to upload as ${owner}`, 100);
    const id = `C4E${randomBytes(12).toString('hex')}`;
    const urn = `urn:li:image:${id}`;
    this.images.set(urn, { urn, owner, status: 'WAITING_UPLOAD' });
    return {
      json: {
        value: {
          uploadUrlExpiresAt: Date.now() + 86_400_000,
          uploadUrl: `${this.url}/dms-uploads/image/${id}`,
          image: urn,
        },
      },
    };
  }

  #putImage(request: RecordedRequest, id: string): FakeResponse {
    const denied = this.#authenticate(request, []);
    if (denied) return denied;
    const image = this.images.get(`urn:li:image:${id}`);
    if (!image) return { status: 404, text: 'Not Found' };
    const bytes = request.rawBody;
    const isImage =
      (bytes[0] === 0xff && bytes[1] === 0xd8) ||
      bytes.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47])) ||
      bytes.subarray(0, 3).toString('latin1') === 'GIF';
    if (!isImage) return linkedInErrorResponse(400, 'ILLEGAL_ARGUMENT', 'Unsupported image format');
    image.bytes = Buffer.from(bytes);
    image.status = 'AVAILABLE';
    return { status: 201 };
  }

  #getImage(request: RecordedRequest, urn: string): FakeResponse {
    const denied = this.#versioned(request) ?? this.#authenticate(request, []);
    if (denied) return denied;
    const image = this.images.get(urn);
    if (!image) return linkedInErrorResponse(404, 'NOT_FOUND', `Image ${urn} not found`);
    return { json: { id: urn, owner: image.owner, status: image.status } };
  }

  // --- Videos ----------------------------------------------------------------------------------

  #videoAction(request: RecordedRequest): FakeResponse {
    const action = request.query.get('action');
    if (action === 'initializeUpload') return this.#initializeVideo(request);
    if (action === 'finalizeUpload') return this.#finalizeVideo(request);
    return linkedInErrorResponse(400, 'ILLEGAL_ARGUMENT', `Unknown action ${action}`);
  }

  #initializeVideo(request: RecordedRequest): FakeResponse {
    const input = (
      request.body as { initializeUploadRequest?: { owner?: string; fileSizeBytes?: number } } | undefined
    )?.initializeUploadRequest;
    const owner = input?.owner ?? '';
    const denied = this.#versioned(request, true) ?? this.#authenticate(request, this.#authorScope(owner));
    if (denied) return denied;
    if (!this.#canPostAs(owner))
      return linkedInErrorResponse(403, 'ACCESS_DENIED', `Not enough permissions to upload as ${owner}`, 100);
    const size = input?.fileSizeBytes;
    if (typeof size !== 'number' || size <= 0)
      return linkedInErrorResponse(400, 'ILLEGAL_ARGUMENT', '/fileSizeBytes is required');
    if (size > 500 * 1024 * 1024)
      return linkedInErrorResponse(400, 'ILLEGAL_ARGUMENT', 'Video exceeds the maximum size of 500 MB');
    const id = `D5${randomBytes(12).toString('hex')}`;
    const urn = `urn:li:video:${id}`;
    const video: FakeVideo = {
      urn,
      owner,
      size,
      partBytes: this.videoPartBytes,
      parts: new Map(),
      uploadToken: randomBytes(8).toString('hex'),
      status: 'WAITING_UPLOAD',
      pollsLeft: this.videoProcessingPolls,
    };
    this.videos.set(urn, video);
    const instructions = [];
    for (let first = 0, n = 0; first < size; first += video.partBytes, n++) {
      instructions.push({
        uploadUrl: `${this.url}/dms-uploads/video/${id}/${n}`,
        firstByte: first,
        lastByte: Math.min(first + video.partBytes, size) - 1,
      });
    }
    return {
      json: {
        value: {
          uploadUrlsExpireAt: Date.now() + 86_400_000,
          video: urn,
          uploadInstructions: instructions,
          uploadToken: video.uploadToken,
        },
      },
    };
  }

  #putVideoPart(request: RecordedRequest, id: string, n: number): FakeResponse {
    const denied = this.#authenticate(request, []);
    if (denied) return denied;
    const video = this.videos.get(`urn:li:video:${id}`);
    if (!video) return { status: 404, text: 'Not Found' };
    const first = n * video.partBytes;
    const expected = Math.min(first + video.partBytes, video.size) - first;
    if (request.rawBody.length !== expected) {
      return linkedInErrorResponse(
        400,
        'ILLEGAL_ARGUMENT',
        `Part ${n} must be ${expected} bytes, got ${request.rawBody.length}`,
      );
    }
    const etag = `/ambry-video/signedId/${randomBytes(10).toString('hex')}`;
    video.parts.set(n, { etag, bytes: Buffer.from(request.rawBody) });
    return { status: 200, headers: { etag } };
  }

  #finalizeVideo(request: RecordedRequest): FakeResponse {
    const denied = this.#versioned(request, true) ?? this.#authenticate(request, []);
    if (denied) return denied;
    const input = (
      request.body as
        | { finalizeUploadRequest?: { video?: string; uploadToken?: string; uploadedPartIds?: string[] } }
        | undefined
    )?.finalizeUploadRequest;
    const video = input?.video ? this.videos.get(input.video) : undefined;
    if (!video) return linkedInErrorResponse(404, 'NOT_FOUND', 'Video not found');
    const partCount = Math.ceil(video.size / video.partBytes);
    const expected = Array.from({ length: partCount }, (_, n) => video.parts.get(n)?.etag);
    if (
      input?.uploadToken !== video.uploadToken ||
      JSON.stringify(input?.uploadedPartIds) !== JSON.stringify(expected)
    ) {
      return linkedInErrorResponse(
        400,
        'ILLEGAL_ARGUMENT',
        'The uploaded part ids do not match the parts of this upload',
      );
    }
    video.bytes = Buffer.concat(expected.map((_, n) => video.parts.get(n)!.bytes));
    video.status = this.failNextVideoProcessing ? 'PROCESSING_FAILED' : 'PROCESSING';
    this.failNextVideoProcessing = false;
    return { status: 200 };
  }

  #getVideo(request: RecordedRequest, urn: string): FakeResponse {
    const denied = this.#versioned(request) ?? this.#authenticate(request, []);
    if (denied) return denied;
    const video = this.videos.get(urn);
    if (!video) return linkedInErrorResponse(404, 'NOT_FOUND', `Video ${urn} not found`);
    if (video.status === 'PROCESSING') {
      if (video.pollsLeft <= 0) video.status = 'AVAILABLE';
      else video.pollsLeft--;
    }
    return {
      json: {
        id: urn,
        owner: video.owner,
        status: video.status,
        ...(video.status === 'PROCESSING_FAILED'
          ? { processingFailureReason: 'Video format is not supported' }
          : {}),
      },
    };
  }

  // --- Posts -----------------------------------------------------------------------------------

  /** The checks of a versioned write as `author`: headers, token and scope, then the right to act as that member or page. */
  #writeAs(request: RecordedRequest, author: string, resource: string): FakeResponse | undefined {
    const denied = this.#versioned(request, true) ?? this.#authenticate(request, this.#authorScope(author));
    if (denied) return denied;
    if (!this.#canPostAs(author)) {
      return linkedInErrorResponse(
        403,
        'ACCESS_DENIED',
        `Not enough permissions to access: ${resource}.CREATE.20251001`,
        100,
      );
    }
    return undefined;
  }

  #createPost(request: RecordedRequest): FakeResponse {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const author = typeof body.author === 'string' ? body.author : '';
    const denied = this.#writeAs(request, author, 'partnerApiPostsExternal');
    if (denied) return denied;
    const commentary = typeof body.commentary === 'string' ? body.commentary : '';
    if (commentary.length > 3000) {
      return linkedInErrorResponse(
        422,
        'UNPROCESSABLE_ENTITY',
        `/commentary :: length ${commentary.length} exceeds the maximum allowed 3000`,
      );
    }
    const distribution = body.distribution as { feedDistribution?: string } | undefined;
    if (
      !['PUBLIC', 'CONNECTIONS', 'LOGGED_IN'].includes(String(body.visibility)) ||
      !distribution?.feedDistribution
    ) {
      return linkedInErrorResponse(
        422,
        'UNPROCESSABLE_ENTITY',
        '/visibility and /distribution/feedDistribution are required',
      );
    }
    if (body.lifecycleState !== 'PUBLISHED') {
      return linkedInErrorResponse(422, 'UNPROCESSABLE_ENTITY', '/lifecycleState must be PUBLISHED');
    }
    const content = body.content as FakeLinkedInPost['content'];
    const ids = content?.media ? [content.media.id] : (content?.multiImage?.images ?? []).map((i) => i.id);
    if (content?.multiImage && (ids.length < 2 || ids.length > 20)) {
      return linkedInErrorResponse(
        422,
        'UNPROCESSABLE_ENTITY',
        '/content/multiImage/images must hold 2 to 20 images',
      );
    }
    const altTexts = content?.media
      ? [content.media.altText]
      : (content?.multiImage?.images ?? []).map((i) => i.altText);
    const longAlt = altTexts.findIndex((alt) => alt !== undefined && alt.length > 4086);
    if (longAlt >= 0) {
      return linkedInErrorResponse(
        422,
        'UNPROCESSABLE_ENTITY',
        `/content :: altText length ${altTexts[longAlt]!.length} exceeds the maximum allowed 4086`,
      );
    }
    for (const id of ids) {
      const asset = this.images.get(id) ?? this.videos.get(id);
      if (!asset || asset.owner !== author)
        return linkedInErrorResponse(
          400,
          'ILLEGAL_ARGUMENT',
          `Media ${id} does not exist or belongs to another owner`,
        );
      if (asset.status !== 'AVAILABLE')
        return linkedInErrorResponse(
          400,
          'ILLEGAL_ARGUMENT',
          `Media ${id} is not AVAILABLE (${asset.status})`,
        );
    }
    const duplicate = this.posts.find(
      (p) => p.author === author && p.commentary === commentary && commentary !== '',
    );
    if (duplicate) {
      return linkedInErrorResponse(422, 'DUPLICATE_POST', `Content is a duplicate of ${duplicate.urn}`);
    }
    const urn = `urn:li:share:${7_000_000_000_000_000_000n + BigInt(this.posts.length + 1)}`;
    this.posts.push({
      urn,
      author,
      commentary,
      text: parseLittleText(commentary),
      visibility: String(body.visibility),
      ...(content ? { content } : {}),
      isReshareDisabledByAuthor: body.isReshareDisabledByAuthor === true,
    });
    if (this.loseNextPostAnswer) {
      this.loseNextPostAnswer = false;
      return { drop: true };
    }
    return { status: 201, headers: { 'x-restli-id': urn, 'x-linkedin-id': urn } };
  }

  /** Deletes a post, as its author would. */
  deletePost(urn: string): void {
    const post = this.posts.find((p) => p.urn === urn);
    if (post) post.deleted = true;
  }

  /**
   * `GET /rest/socialActions/{post urn}`: the likes and comments summaries; reading them needs
   * `r_member_social` or `r_organization_social` (403 otherwise), a deleted post answers 404.
   */
  #socialActions(request: RecordedRequest, target: string): FakeResponse {
    const denied =
      this.#versioned(request) ?? this.#authenticate(request, ['r_member_social', 'r_organization_social']);
    if (denied) return denied;
    const post = this.posts.find((p) => p.urn === target && !p.deleted);
    if (!post) return linkedInErrorResponse(404, 'NOT_FOUND', `Entity ${target} not found`);
    const comments = this.figures.of(target, 'comments');
    return {
      json: {
        target,
        likesSummary: { totalLikes: this.figures.of(target, 'likes'), likedByCurrentUser: false },
        commentsSummary: { totalFirstLevelComments: comments, aggregatedTotalComments: comments },
      },
    };
  }

  /** `POST /rest/socialActions/{post urn}/comments` `{ actor, object, message: { text } }`. */
  #createComment(request: RecordedRequest, target: string): FakeResponse {
    const body = (request.body ?? {}) as { actor?: unknown; object?: unknown; message?: { text?: unknown } };
    const actor = typeof body.actor === 'string' ? body.actor : '';
    const denied = this.#writeAs(request, actor, 'socialActions.comments');
    if (denied) return denied;
    if (body.object !== target) {
      return linkedInErrorResponse(400, 'ILLEGAL_ARGUMENT', '/object must be the URN in the path');
    }
    const text = body.message?.text;
    if (typeof text !== 'string' || text === '') {
      return linkedInErrorResponse(422, 'UNPROCESSABLE_ENTITY', '/message/text is required');
    }
    if (text.length > 1250) {
      return linkedInErrorResponse(
        422,
        'UNPROCESSABLE_ENTITY',
        `/message/text :: length ${text.length} exceeds the maximum allowed 1250`,
      );
    }
    const post = this.posts.find((p) => p.urn === target && !p.deleted);
    if (!post) return linkedInErrorResponse(404, 'NOT_FOUND', `Entity ${target} not found`);
    const id = String(7_100_000_000_000_000_000n + BigInt(this.comments.length + 1));
    const urn = `urn:li:comment:(${target},${id})`;
    this.comments.push({ urn, id, actor, object: target, text });
    return {
      status: 201,
      headers: { 'x-restli-id': urn },
      json: { id, commentUrn: urn, actor, object: target, message: { text } },
    };
  }
}

/** LinkedIn's error body. */
export function linkedInErrorResponse(
  status: number,
  code: string,
  message: string,
  serviceErrorCode?: number,
): FakeResponse {
  return {
    status,
    json: { status, ...(serviceErrorCode === undefined ? {} : { serviceErrorCode }), code, message },
  };
}

export async function startFakeLinkedIn(options: FakeLinkedInOptions = {}): Promise<FakeLinkedIn> {
  const fake = new FakeLinkedIn(options);
  await fake.start();
  return fake;
}
