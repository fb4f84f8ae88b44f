import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { type FakeResponse, FakeServer, type RecordedRequest } from './fake-server.ts';

export interface FakeDribbbleShot {
  id: number;
  userId: number;
  title: string;
  description: string | null;
  tags: string[];
  width: number;
  height: number;
  contentType: string;
  /** GETs of the shot still answered 404 (Dribbble processes an upload after its 202). */
  pendingPolls: number;
  createdAt: string;
}

export interface FakeDribbbleUser {
  id: number;
  login: string;
  name: string;
}

type Json = Record<string, unknown>;
const notFound: FakeResponse = { status: 404, json: { message: 'Not found' } };
const imageTypes = new Set(['image/png', 'image/jpeg', 'image/gif']);

/** A valid PNG of the given size (grey pixels), for dimension checks. */
export function pngOfSize(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const b of bytes) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const tail = Buffer.alloc(4);
    tail.writeUInt32BE(crc(body));
    return Buffer.concat([head, body, tail]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  const rows = Buffer.alloc((width + 1) * height, 0x80);
  for (let y = 0; y < height; y++) rows[y * (width + 1)] = 0; // filter: none
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The fake's own reading of an upload's size (PNG IHDR, GIF screen, JPEG SOF0/1/2). */
function dimensions(bytes: Buffer): { width: number; height: number } | undefined {
  if (bytes.subarray(1, 4).toString('ascii') === 'PNG')
    return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  if (bytes.subarray(0, 3).toString('ascii') === 'GIF')
    return { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
  for (let i = 2; i + 9 < bytes.length; ) {
    if (bytes[i] !== 0xff) return undefined;
    const marker = bytes[i + 1]!;
    if (marker >= 0xc0 && marker <= 0xc2)
      return { height: bytes.readUInt16BE(i + 5), width: bytes.readUInt16BE(i + 7) };
    i += 2 + bytes.readUInt16BE(i + 2);
  }
  return undefined;
}

/**
 * Dribbble's API v2 (developer.dribbble.com/v2) as far as shots go, with its OAuth 2.0 web flow
 * (`/oauth/authorize` approves at once, `/oauth/token` with the client secret; tokens never
 * expire): bearer tokens (401 `{ message: "Bad credentials." }`), the `upload` scope (403 without
 * it), `GET /v2/user`, `POST /v2/shots` (multipart `image`, `title`, `description`, `tags` up to
 * 12; 422 `{ message, errors: [{ attribute, message }] }` for an image outside 400×300-1600×1200
 * in 4:3, over 8 MB, or not PNG/JPEG/GIF) answering 202 with `Location`, the shot answering 404
 * until processed, `GET /v2/user/shots`, and the rate-limit headers (60 a minute).
 */
export class FakeDribbble {
  readonly server = new FakeServer();
  readonly shots: FakeDribbbleShot[] = [];
  readonly user: FakeDribbbleUser = { id: 8421, login: 'alice', name: 'Alice Designer' };
  readonly clientId = 'dribbble-client';
  readonly clientSecret = 'dribbble-secret';
  /** How many GETs of a new shot answer 404 before it exists. */
  processingPolls = 2;
  readonly #tokens = new Map<string, { scopes: string[] }>();
  readonly #codes = new Map<string, { redirectUri: string; scopes: string[] }>();
  #nextShot = 100;

  constructor() {
    const s = this.server;
    s.route('GET', /^\/oauth\/authorize$/, (req) => this.#authorize(req));
    s.route('POST', /^\/oauth\/token$/, (req) => this.#token(req));
    s.route('GET', /^\/v2\/user$/, (req) => this.#authed(req, () => ({ json: this.#userJson() })));
    s.route('GET', /^\/v2\/user\/shots$/, (req) =>
      this.#authed(req, () => ({
        json: this.shots
          .filter((shot) => shot.pendingPolls <= 0)
          .reverse()
          .map((shot) => this.#shotJson(shot)),
      })),
    );
    s.route('GET', /^\/v2\/shots\/(\d+)$/, (req, m) => this.#authed(req, () => this.#shot(Number(m[1]))));
    s.route('POST', /^\/v2\/shots$/, (req) => this.#authed(req, (scopes) => this.#create(req, scopes)));
  }

  get url(): string {
    return this.server.url;
  }

  env(): Record<string, string> {
    return {
      DRIBBBLE_API_URL: `${this.url}/v2`,
      DRIBBBLE_OAUTH_URL: `${this.url}/oauth`,
      DRIBBBLE_CLIENT_ID: this.clientId,
      DRIBBBLE_CLIENT_SECRET: this.clientSecret,
    };
  }

  /** A token as the OAuth flow would issue it (`public upload` unless told). */
  issueToken(scopes = ['public', 'upload']): string {
    const token = randomBytes(16).toString('hex');
    this.#tokens.set(token, { scopes });
    return token;
  }

  revokeTokens(): void {
    this.#tokens.clear();
  }

  /** The next request answers 429 with the rate-limit headers spent until `resetInSeconds`. */
  rateLimit(resetInSeconds = 2): void {
    this.server.inject({
      status: 429,
      headers: {
        'x-ratelimit-limit': '60',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + resetInSeconds),
      },
      json: { message: 'API rate limit exceeded.' },
    });
  }

  requests(method: string, path: RegExp): RecordedRequest[] {
    return this.server.requests.filter((r) => r.method === method && path.test(r.path));
  }

  async start(): Promise<this> {
    await this.server.start();
    return this;
  }

  close(): Promise<void> {
    return this.server.close();
  }

  #authorize(req: RecordedRequest): FakeResponse {
    const q = req.query;
    if (q.get('client_id') !== this.clientId) return { status: 400, text: 'Unknown client' };
    const redirectUri = q.get('redirect_uri');
    if (!redirectUri) return { status: 400, text: 'redirect_uri missing' };
    const back = new URL(redirectUri);
    const code = randomBytes(8).toString('hex');
    this.#codes.set(code, { redirectUri, scopes: (q.get('scope') ?? 'public').split(/[ +]/) });
    back.searchParams.set('code', code);
    const state = q.get('state');
    if (state !== null) back.searchParams.set('state', state);
    return { status: 302, headers: { location: back.toString() } };
  }

  #token(req: RecordedRequest): FakeResponse {
    const form = (req.body ?? {}) as Json;
    if (form.client_id !== this.clientId || form.client_secret !== this.clientSecret)
      return {
        status: 401,
        json: { error: 'invalid_client', error_description: 'Client authentication failed.' },
      };
    const grant = this.#codes.get(String(form.code));
    this.#codes.delete(String(form.code));
    if (!grant || grant.redirectUri !== form.redirect_uri)
      return {
        status: 401,
        json: { error: 'invalid_grant', error_description: 'The provided authorization grant is invalid.' },
      };
    const token = this.issueToken(grant.scopes);
    return {
      json: {
        access_token: token,
        token_type: 'bearer',
        scope: grant.scopes.join(' '),
        created_at: Math.floor(Date.now() / 1000),
      },
    };
  }

  #authed(req: RecordedRequest, handler: (scopes: string[]) => FakeResponse | Promise<FakeResponse>) {
    const match = /^Bearer (\S+)$/.exec(String(req.headers.authorization ?? ''));
    const grant = match ? this.#tokens.get(match[1]!) : undefined;
    if (!grant) return { status: 401, json: { message: 'Bad credentials.' } };
    const limits = {
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': '59',
      'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 60),
    };
    return Promise.resolve(handler(grant.scopes)).then((response) => ({
      ...response,
      headers: { ...limits, ...response.headers },
    }));
  }

  #userJson(): Json {
    return {
      id: this.user.id,
      name: this.user.name,
      login: this.user.login,
      html_url: `https://dribbble.com/${this.user.login}`,
      avatar_url: `https://cdn.dribbble.com/users/${this.user.id}/avatars/normal/a.png`,
      can_upload_shot: true,
    };
  }

  #shotJson(shot: FakeDribbbleShot): Json {
    return {
      id: shot.id,
      title: shot.title,
      description: shot.description,
      tags: shot.tags,
      width: shot.width,
      height: shot.height,
      html_url: `https://dribbble.com/shots/${shot.id}-${shot.title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`,
      images: { normal: `https://cdn.dribbble.com/shots/${shot.id}/normal.png` },
      published_at: shot.createdAt,
      created_at: shot.createdAt,
    };
  }

  #shot(id: number): FakeResponse {
    const shot = this.shots.find((s) => s.id === id);
    if (!shot) return notFound;
    if (shot.pendingPolls > 0) {
      shot.pendingPolls--;
      return notFound;
    }
    return { json: this.#shotJson(shot) };
  }

  async #create(req: RecordedRequest, scopes: string[]): Promise<FakeResponse> {
    if (!scopes.includes('upload'))
      return {
        status: 403,
        json: { message: 'You do not have permission to upload shots (the upload scope is needed).' },
      };
    // Repeated fields (tags) are read from the form itself: the recorded body keeps one value a name.
    const form = await new Request('http://fake/', {
      method: 'POST',
      headers: { 'content-type': String(req.headers['content-type'] ?? '') },
      body: new Uint8Array(req.rawBody),
    }).formData();
    const invalid = (attribute: string, message: string): FakeResponse => ({
      status: 422,
      json: { message: 'Validation failed.', errors: [{ attribute, message }] },
    });
    const image = form.get('image');
    if (!(image instanceof File)) return invalid('image', "can't be blank");
    const title = form.get('title');
    if (typeof title !== 'string' || !title.trim()) return invalid('title', "can't be blank");
    const tags = form.getAll('tags').map(String);
    if (tags.length > 12) return invalid('tags', 'must be 12 or fewer');
    if (!imageTypes.has(image.type)) return invalid('image', 'must be a PNG, JPEG or GIF');
    if (image.size > 8 * 1024 * 1024) return invalid('image', 'must be 8 MB or smaller');
    const size = dimensions(Buffer.from(await image.arrayBuffer()));
    if (!size || size.width * 3 !== size.height * 4 || size.width < 400 || size.width > 1600)
      return invalid('image', 'must be between 400x300 and 1600x1200 and in a 4:3 ratio');
    const description = form.get('description');
    const shot: FakeDribbbleShot = {
      id: this.#nextShot++,
      userId: this.user.id,
      title,
      description: typeof description === 'string' ? description : null,
      tags,
      ...size,
      contentType: image.type,
      pendingPolls: this.processingPolls,
      createdAt: new Date().toISOString(),
    };
    this.shots.push(shot);
    return { status: 202, headers: { location: `${this.url}/v2/shots/${shot.id}` } };
  }
}

export function startFakeDribbble(): Promise<FakeDribbble> {
  return new FakeDribbble().start();
}
