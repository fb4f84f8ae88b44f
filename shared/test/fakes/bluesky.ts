import { createHash, randomUUID } from 'node:crypto';
import { checkPostRecord, type PostLimits, type StoredBlob } from './bluesky-record.ts';
import { type FakeResponse, FakeServer, type RecordedRequest } from './fake-server.ts';
import { FakeFigures } from './figures.ts';
import { signFakeJwt, verifyFakeJwt } from './jwt.ts';

export interface FakeBlueskyAccount {
  handle: string;
  did: string;
  appPassword: string;
  email?: string;
  displayName?: string;
  avatar?: string;
  /** A taken-down account still authenticates nowhere: createSession answers AccountTakedown. */
  takendown?: boolean;
}

export interface FakeBlueskyOptions {
  accounts: FakeBlueskyAccount[];
  /** Extra handle → DID pairs resolveHandle knows (accounts on other servers). */
  knownHandles?: Record<string, string>;
  /** Access token lifetime; the real PDS issues two-hour tokens. */
  accessTtlMs?: number;
  limits?: Partial<PostLimits>;
  /** The PDS's uploadBlob body limit (413 PayloadTooLarge above it). */
  maxUploadBytes?: number;
}

export interface StoredRecord {
  uri: string;
  cid: string;
  did: string;
  collection: string;
  rkey: string;
  value: Record<string, unknown>;
}

interface IssuedToken {
  did: string;
  scope: 'com.atproto.access' | 'com.atproto.refresh';
  expiresAt: number;
  revoked: boolean;
}

const defaultLimits: PostLimits = {
  maxGraphemes: 300,
  maxTextBytes: 3000,
  maxImages: 4,
  maxImageBytes: 2_000_000,
  maxVideoBytes: 100_000_000,
};

const xrpcError = (status: number, error: string, message: string): FakeResponse => ({
  status,
  json: { error, message },
});

/**
 * A Bluesky PDS as far as publishing goes: app-password sessions with expiring JWTs and
 * rotating refresh tokens, handle resolution, blob upload and record creation with the
 * lexicon's limits, answering with the real XRPC error names.
 */
export class FakeBluesky {
  readonly server = new FakeServer();
  readonly records: StoredRecord[] = [];
  readonly blobs = new Map<string, StoredBlob>();
  /** What `app.bsky.feed.getPosts` reports per post URI; `followers` is every profile's `followersCount`. */
  readonly figures = new FakeFigures<'likeCount' | 'replyCount' | 'repostCount' | 'quoteCount'>();
  readonly #accounts: FakeBlueskyAccount[];
  readonly #handles: Map<string, string>;
  readonly #tokens = new Map<string, IssuedToken>();
  readonly #secret = randomUUID();
  readonly #accessTtlMs: number;
  readonly #limits: PostLimits;
  readonly #maxUploadBytes: number;
  #answersToLose = 0;

  constructor(options: FakeBlueskyOptions) {
    this.#accounts = options.accounts;
    this.#handles = new Map([
      ...options.accounts.map((a) => [a.handle.toLowerCase(), a.did] as const),
      ...Object.entries(options.knownHandles ?? {}).map(([h, d]) => [h.toLowerCase(), d] as const),
    ]);
    this.#accessTtlMs = options.accessTtlMs ?? 2 * 60 * 60_000;
    this.#limits = { ...defaultLimits, ...options.limits };
    this.#maxUploadBytes = options.maxUploadBytes ?? 100_000_000;
    this.#routes();
  }

  get url(): string {
    return this.server.url;
  }

  /** Environment that points a publisher (or a whole server under test) at this fake. */
  env(): Record<string, string> {
    return { BLUESKY_SERVICE_URL: this.url };
  }

  /** Accounts-file credentials for one of the fake's accounts, with `service` pointing here. */
  credentials(handle: string): Record<string, string> {
    const account = this.#accounts.find((a) => a.handle === handle);
    if (!account) throw new Error(`FakeBluesky: no account ${handle}`);
    return { identifier: account.handle, appPassword: account.appPassword, service: this.url };
  }

  /** Every request to one XRPC method, in order. */
  calls(nsid: string): RecordedRequest[] {
    return this.server.requests.filter((r) => r.path === `/xrpc/${nsid}`);
  }

  /** Makes every access token issued so far expired, as two hours passing would. */
  expireAccessTokens(): void {
    for (const token of this.#tokens.values()) if (token.scope === 'com.atproto.access') token.expiresAt = 0;
  }

  /** Makes every refresh token expired too, so only a new login helps. */
  expireRefreshTokens(): void {
    for (const token of this.#tokens.values()) if (token.scope === 'com.atproto.refresh') token.expiresAt = 0;
  }

  /** The next `times` calls (of `nsid`, or any) answer 429 RateLimitExceeded with the PDS's ratelimit headers. */
  rateLimit(options: { times?: number; nsid?: string; resetInSeconds?: number } = {}): void {
    const reset = Math.ceil(Date.now() / 1000) + (options.resetInSeconds ?? 0);
    this.server.inject({
      times: options.times ?? 1,
      ...(options.nsid ? { path: new RegExp(`^/xrpc/${options.nsid.replaceAll('.', '\\.')}$`) } : {}),
      status: 429,
      headers: {
        'ratelimit-limit': '3000',
        'ratelimit-remaining': '0',
        'ratelimit-reset': String(reset),
        'ratelimit-policy': '3000;w=300',
      },
      json: { error: 'RateLimitExceeded', message: 'Rate Limit Exceeded' },
    });
  }

  /** The next `times` calls answer a server error, as an overloaded PDS or its proxy would. */
  failWith(status: number, options: { times?: number; nsid?: string } = {}): void {
    this.server.inject({
      times: options.times ?? 1,
      ...(options.nsid ? { path: new RegExp(`^/xrpc/${options.nsid.replaceAll('.', '\\.')}$`) } : {}),
      status,
      json:
        status === 502
          ? { error: 'UpstreamFailure', message: 'Upstream Failure' }
          : { error: 'InternalServerError', message: 'Internal Server Error' },
    });
  }

  /**
   * The next `times` createRecord calls store the record and then drop the connection, as a
   * network failure after the PDS committed would: the client cannot tell whether it posted.
   */
  loseCreateRecordAnswer(times = 1): void {
    this.#answersToLose += times;
  }

  /** Deletes a record, as its author would (a later getRecord answers RecordNotFound). */
  deleteRecord(uri: string): void {
    const index = this.records.findIndex((r) => r.uri === uri);
    if (index >= 0) this.records.splice(index, 1);
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
    s.route('POST', /^\/xrpc\/com\.atproto\.server\.createSession$/, (req) => this.#createSession(req));
    s.route('POST', /^\/xrpc\/com\.atproto\.server\.refreshSession$/, (req) => this.#refreshSession(req));
    s.route('GET', /^\/xrpc\/com\.atproto\.identity\.resolveHandle$/, (req) => this.#resolveHandle(req));
    s.route('POST', /^\/xrpc\/com\.atproto\.repo\.uploadBlob$/, (req) =>
      this.#authed(req, (a) => this.#upload(req, a)),
    );
    s.route('POST', /^\/xrpc\/com\.atproto\.repo\.createRecord$/, (req) =>
      this.#authed(req, (a) => this.#createRecord(req, a)),
    );
    s.route('GET', /^\/xrpc\/com\.atproto\.repo\.getRecord$/, (req) => this.#getRecord(req));
    s.route('GET', /^\/xrpc\/app\.bsky\.feed\.getPosts$/, (req) =>
      this.#authed(req, () => this.#getPosts(req)),
    );
    s.route('GET', /^\/xrpc\/app\.bsky\.actor\.getProfile$/, (req) =>
      this.#authed(req, () => this.#getProfile(req)),
    );
  }

  #createSession(req: RecordedRequest): FakeResponse {
    const body = req.body as { identifier?: unknown; password?: unknown } | undefined;
    if (typeof body?.identifier !== 'string' || typeof body.password !== 'string') {
      return xrpcError(400, 'InvalidRequest', 'Input must have the property "identifier"');
    }
    const id = body.identifier.toLowerCase();
    const account = this.#accounts.find(
      (a) => a.handle.toLowerCase() === id || a.did === body.identifier || a.email?.toLowerCase() === id,
    );
    if (!account || account.appPassword !== body.password) {
      return xrpcError(401, 'AuthenticationRequired', 'Invalid identifier or password');
    }
    if (account.takendown) return xrpcError(401, 'AccountTakedown', 'Account has been taken down');
    return {
      json: { ...this.#issue(account), ...(account.email ? { email: account.email } : {}), active: true },
    };
  }

  #refreshSession(req: RecordedRequest): FakeResponse {
    const checked = this.#verify(req, 'com.atproto.refresh');
    if (!('account' in checked)) return checked;
    checked.token.revoked = true;
    return { json: { ...this.#issue(checked.account), active: true } };
  }

  #issue(account: FakeBlueskyAccount): Record<string, string> {
    const now = Date.now();
    const sign = (scope: IssuedToken['scope'], ttl: number) => {
      const jwt = signFakeJwt(
        {
          scope,
          sub: account.did,
          aud: 'did:web:fake.pds',
          iat: Math.floor(now / 1000),
          exp: Math.floor((now + ttl) / 1000),
        },
        this.#secret,
      );
      this.#tokens.set(jwt, { did: account.did, scope, expiresAt: now + ttl, revoked: false });
      return jwt;
    };
    return {
      did: account.did,
      handle: account.handle,
      accessJwt: sign('com.atproto.access', this.#accessTtlMs),
      refreshJwt: sign('com.atproto.refresh', 90 * 24 * 60 * 60_000),
    };
  }

  #verify(
    req: RecordedRequest,
    scope: IssuedToken['scope'],
  ): FakeResponse | { account: FakeBlueskyAccount; token: IssuedToken } {
    const header = String(req.headers.authorization ?? '');
    if (!header.startsWith('Bearer '))
      return xrpcError(401, 'AuthenticationRequired', 'Authentication Required');
    const jwt = header.slice('Bearer '.length);
    const token = this.#tokens.get(jwt);
    if (!token || !verifyFakeJwt(jwt, this.#secret))
      return xrpcError(400, 'InvalidToken', 'Token could not be verified');
    if (token.scope !== scope) return xrpcError(400, 'InvalidToken', 'Bad token scope');
    if (token.revoked) return xrpcError(400, 'ExpiredToken', 'Token has been revoked');
    if (token.expiresAt <= Date.now()) return xrpcError(400, 'ExpiredToken', 'Token has expired');
    const account = this.#accounts.find((a) => a.did === token.did)!;
    if (account.takendown) return xrpcError(400, 'AccountTakedown', 'Account has been taken down');
    return { account, token };
  }

  async #authed(
    req: RecordedRequest,
    handler: (account: FakeBlueskyAccount) => FakeResponse | Promise<FakeResponse>,
  ): Promise<FakeResponse> {
    const checked = this.#verify(req, 'com.atproto.access');
    if (!('account' in checked)) return checked;
    return handler(checked.account);
  }

  #resolveHandle(req: RecordedRequest): FakeResponse {
    const handle = req.query.get('handle');
    if (!handle) return xrpcError(400, 'InvalidRequest', 'Error: Params must have the property "handle"');
    const did = this.#handles.get(handle.toLowerCase());
    return did ? { json: { did } } : xrpcError(400, 'InvalidRequest', 'Unable to resolve handle');
  }

  #upload(req: RecordedRequest, account: FakeBlueskyAccount): FakeResponse {
    if (req.rawBody.length > this.#maxUploadBytes) {
      return xrpcError(413, 'PayloadTooLarge', 'request entity too large');
    }
    const mimeType = String(req.headers['content-type'] ?? 'application/octet-stream').split(';')[0]!;
    const cid = `bafkrei${createHash('sha256').update(req.rawBody).digest('hex').slice(0, 52)}`;
    this.blobs.set(cid, { did: account.did, cid, mimeType, size: req.rawBody.length, bytes: req.rawBody });
    return { json: { blob: { $type: 'blob', ref: { $link: cid }, mimeType, size: req.rawBody.length } } };
  }

  #createRecord(req: RecordedRequest, account: FakeBlueskyAccount): FakeResponse {
    const body = req.body as Record<string, unknown> | undefined;
    if (!body || typeof body.collection !== 'string' || body.record === undefined) {
      return xrpcError(400, 'InvalidRequest', 'Input must have the property "collection"');
    }
    if (body.repo !== account.did && body.repo !== account.handle) {
      return xrpcError(401, 'AuthenticationRequired', 'Invalid did');
    }
    const rkey = typeof body.rkey === 'string' ? body.rkey : nextFakeTid();
    if (!/^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/.test(rkey)) {
      return xrpcError(400, 'InvalidRequest', `Invalid record key: ${rkey}`);
    }
    if (
      this.records.some((r) => r.did === account.did && r.collection === body.collection && r.rkey === rkey)
    ) {
      return xrpcError(400, 'InvalidRequest', `Record already exists at ${body.collection}/${rkey}`);
    }
    if (body.collection === 'app.bsky.feed.post') {
      const problem = checkPostRecord(body.record, account.did, this.blobs, this.#limits);
      if (problem) return xrpcError(400, problem.error, problem.message);
    }
    const uri = `at://${account.did}/${body.collection}/${rkey}`;
    const cid = `bafyrei${createHash('sha256').update(JSON.stringify(body.record)).digest('hex').slice(0, 52)}`;
    this.records.push({
      uri,
      cid,
      did: account.did,
      collection: body.collection,
      rkey,
      value: body.record as Record<string, unknown>,
    });
    if (this.#answersToLose > 0) {
      this.#answersToLose--;
      return { drop: true };
    }
    return { json: { uri, cid, commit: { cid, rev: nextFakeTid() }, validationStatus: 'valid' } };
  }

  #getRecord(req: RecordedRequest): FakeResponse {
    const repo = req.query.get('repo');
    const did = repo?.startsWith('did:') ? repo : this.#handles.get(repo?.toLowerCase() ?? '');
    const uri = `at://${did}/${req.query.get('collection')}/${req.query.get('rkey')}`;
    const record = this.records.find((r) => r.uri === uri);
    if (!record) return xrpcError(400, 'RecordNotFound', `Could not locate record: ${uri}`);
    return { json: { uri: record.uri, cid: record.cid, value: record.value } };
  }

  #getProfile(req: RecordedRequest): FakeResponse {
    const actor = req.query.get('actor')?.toLowerCase();
    const account = this.#accounts.find((a) => a.did === actor || a.handle.toLowerCase() === actor);
    if (!account) return xrpcError(400, 'InvalidRequest', 'Profile not found');
    return {
      json: {
        did: account.did,
        handle: account.handle,
        ...(account.displayName ? { displayName: account.displayName } : {}),
        ...(account.avatar ? { avatar: account.avatar } : {}),
        followersCount: this.figures.followers,
        followsCount: 0,
        postsCount: this.records.filter((r) => r.did === account.did).length,
      },
    };
  }

  /** `app.bsky.feed.getPosts`: post views of the URIs that exist (at most 25), deleted ones left out. */
  #getPosts(req: RecordedRequest): FakeResponse {
    const uris = req.query.getAll('uris');
    if (uris.length > 25) return xrpcError(400, 'InvalidRequest', 'uris must not have more than 25 elements');
    const posts = uris.flatMap((uri) => {
      const record = this.records.find((r) => r.uri === uri);
      if (!record) return [];
      const account = this.#accounts.find((a) => a.did === record.did);
      return [
        {
          uri: record.uri,
          cid: record.cid,
          author: { did: record.did, handle: account?.handle ?? 'handle.invalid' },
          record: record.value,
          indexedAt: new Date().toISOString(),
          likeCount: this.figures.of(uri, 'likeCount'),
          replyCount: this.figures.of(uri, 'replyCount'),
          repostCount: this.figures.of(uri, 'repostCount'),
          quoteCount: this.figures.of(uri, 'quoteCount'),
        },
      ];
    });
    return { json: { posts } };
  }
}

let lastTid = 0;
function nextFakeTid(): string {
  const micros = Math.max(Date.now() * 1000, lastTid + 1);
  lastTid = micros;
  const alphabet = '234567abcdefghijklmnopqrstuvwxyz';
  let value = BigInt(micros) << 10n;
  let out = '';
  for (let i = 0; i < 13; i++) {
    out = alphabet[Number(value & 31n)] + out;
    value >>= 5n;
  }
  return out;
}

export function startFakeBluesky(options: FakeBlueskyOptions): Promise<FakeBluesky> {
  return new FakeBluesky(options).start();
}
