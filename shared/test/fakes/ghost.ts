import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { type FakeResponse, FakeServer, type RecordedRequest } from './fake-server.ts';

export interface FakeGhostOptions {
  /** The site's subdirectory (`/blog`): the Admin API is at `<path>/ghost/api/admin/`. */
  path?: string;
  title?: string;
  /** Image types the upload accepts. */
  imageTypes?: string[];
}

export interface FakeGhostPost {
  id: string;
  uuid: string;
  title: string;
  html: string;
  status: string;
  slug: string;
  tags: string[];
  featureImage: string | null;
  featureImageAlt: string | null;
  createdAt: string;
  /** The `source` query of the create (`html` makes Ghost convert the HTML). */
  source: string | null;
}

export interface FakeGhostImage {
  url: string;
  ref: string | null;
  filename: string;
  type: string;
  size: number;
}

const ghostError = (status: number, type: string, message: string, extra: Record<string, unknown> = {}) => ({
  status,
  json: {
    errors: [
      {
        message,
        context: null,
        type,
        details: null,
        property: null,
        help: null,
        code: null,
        id: randomUUID(),
        ...extra,
      },
    ],
  },
});
const unauthorized = (message: string, code: string) =>
  ghostError(401, 'UnauthorizedError', message, { code });
const hexId = () => randomBytes(12).toString('hex');
/** validator.js isLength, as Ghost validates titles: code points without U+FE0E/U+FE0F. */
const isLength = (text: string) => [...text].filter((c) => c !== '\uFE0E' && c !== '\uFE0F').length;

/**
 * A Ghost site's Admin API as far as posting goes: Admin API keys checked the way Ghost checks
 * them (HS256 signature with the hex secret, `kid`, audience `/admin/`, expiry and a 5-minute
 * maximum age, Ghost's error types and codes), image uploads, posts from HTML with tags.
 */
export class FakeGhost {
  readonly server = new FakeServer();
  readonly posts: FakeGhostPost[] = [];
  readonly images: FakeGhostImage[] = [];
  readonly #keys = new Map<string, Buffer>();
  readonly #options: FakeGhostOptions;

  constructor(options: FakeGhostOptions = {}) {
    this.#options = options;
    this.server.route('GET', /.*/, (req) => this.#dispatch(req));
    this.server.route('POST', /.*/, (req) => this.#dispatch(req));
  }

  get url(): string {
    return `${this.server.url}${this.#options.path ?? ''}`;
  }

  /** A new Admin API key (`<id>:<secret>`) the site accepts. */
  addKey(): string {
    const id = hexId();
    const secret = randomBytes(32);
    this.#keys.set(id, secret);
    return `${id}:${secret.toString('hex')}`;
  }

  /** Revokes a key, as regenerating it in Ghost Admin does. */
  revokeKey(key: string): void {
    this.#keys.delete(key.split(':')[0]!);
  }

  credentials(adminApiKey: string): Record<string, string> {
    return { siteUrl: this.url, adminApiKey };
  }

  calls(path: string, method?: string): RecordedRequest[] {
    const full = `${this.#options.path ?? ''}/ghost/api/admin${path}`;
    return this.server.requests.filter((r) => r.path === full && (!method || r.method === method));
  }

  async start(): Promise<this> {
    await this.server.start();
    return this;
  }

  close(): Promise<void> {
    return this.server.close();
  }

  async #dispatch(req: RecordedRequest): Promise<FakeResponse> {
    const base = `${this.#options.path ?? ''}/ghost/api/admin`;
    if (!req.path.startsWith(`${base}/`)) {
      return {
        status: 404,
        headers: { 'content-type': 'text/html' },
        text: '<html><body>404 Page not found</body></html>',
      };
    }
    const path = req.path.slice(base.length);
    if (path === '/site/' && req.method === 'GET') {
      return {
        json: {
          site: {
            title: this.#options.title ?? 'Fake Ghost',
            url: `${this.url}/`,
            version: '5.96',
            icon: null,
            logo: null,
          },
        },
      };
    }
    const refused = this.#authenticate(req);
    if (refused) return refused;
    if (path === '/posts/' && req.method === 'GET') return this.#browse(req);
    if (path === '/posts/' && req.method === 'POST') return this.#create(req);
    if (path === '/images/upload/' && req.method === 'POST') return this.#upload(req);
    return ghostError(404, 'NotFoundError', 'Resource not found');
  }

  /** Ghost's admin API key authentication (see the class comment); undefined when it passes. */
  #authenticate(req: RecordedRequest): FakeResponse | undefined {
    const header = req.headers.authorization;
    if (typeof header !== 'string') {
      return ghostError(403, 'NoPermissionError', 'Authorization failed', {
        context:
          'Unable to determine the authenticated user or integration. Check that cookies are being passed through if using session authentication.',
      });
    }
    const [scheme, token] = header.split(' ');
    if (!/^Ghost$/i.test(scheme ?? '') || !token) {
      return unauthorized(
        'Authorization header format is "Authorization: Ghost [token]"',
        'INVALID_AUTH_HEADER',
      );
    }
    const [head, body, signature] = token.split('.');
    let header_: { alg?: string; kid?: string };
    let claims: { aud?: unknown; iat?: unknown; exp?: unknown };
    try {
      header_ = JSON.parse(Buffer.from(head!, 'base64url').toString('utf8'));
      claims = JSON.parse(Buffer.from(body!, 'base64url').toString('utf8'));
    } catch {
      return ghostError(400, 'BadRequestError', 'Invalid token', { code: 'INVALID_JWT' });
    }
    if (!header_.kid)
      return ghostError(400, 'BadRequestError', 'Admin API kid missing.', { code: 'MISSING_ADMIN_API_KID' });
    const secret = this.#keys.get(header_.kid);
    if (!secret) return unauthorized('Unknown Admin API Key', 'UNKNOWN_ADMIN_API_KEY');
    const invalid = (message: string) => unauthorized(`Invalid token: ${message}`, 'INVALID_JWT');
    if (header_.alg !== 'HS256') return invalid('invalid algorithm');
    const expected = createHmac('sha256', secret).update(`${head}.${body}`).digest();
    const given = Buffer.from(signature ?? '', 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      return invalid('invalid signature');
    const now = Math.floor(Date.now() / 1000);
    if (typeof claims.exp === 'number' && now >= claims.exp) return invalid('jwt expired');
    const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    if (!audiences.some((a) => typeof a === 'string' && /\/?admin\/?$/.test(a))) {
      return invalid('jwt audience invalid. expected: /\\/?admin\\/?$/');
    }
    if (typeof claims.iat !== 'number') return invalid('iat required when maxAge is specified');
    if (now - claims.iat > 300) return invalid('maxAge exceeded');
    return undefined;
  }

  #postJson(post: FakeGhostPost): Record<string, unknown> {
    return {
      id: post.id,
      uuid: post.uuid,
      title: post.title,
      slug: post.slug,
      html: post.html,
      status: post.status,
      url: post.status === 'published' ? `${this.url}/${post.slug}/` : `${this.url}/p/${post.uuid}/`,
      feature_image: post.featureImage,
      feature_image_alt: post.featureImageAlt,
      tags: post.tags.map((name) => ({
        id: hexId(),
        name,
        slug: name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
      })),
      created_at: post.createdAt,
    };
  }

  #browse(req: RecordedRequest): FakeResponse {
    const limit = Number(req.query.get('limit') ?? 15);
    const statuses = /status:\[([^\]]*)\]/.exec(req.query.get('filter') ?? '')?.[1]?.split(',');
    const fields = req.query.get('fields')?.split(',');
    const found = this.posts
      .filter((p) => !statuses || statuses.includes(p.status))
      .reverse()
      .slice(0, limit);
    const posts = found.map((p) => {
      const json = this.#postJson(p);
      return fields ? Object.fromEntries(Object.entries(json).filter(([k]) => fields.includes(k))) : json;
    });
    return {
      json: {
        posts,
        meta: { pagination: { page: 1, limit, pages: 1, total: this.posts.length, next: null, prev: null } },
      },
    };
  }

  #create(req: RecordedRequest): FakeResponse {
    const posts = (req.body as { posts?: unknown } | undefined)?.posts;
    const input = Array.isArray(posts) ? (posts[0] as Record<string, unknown> | undefined) : undefined;
    if (!input) return ghostError(422, 'ValidationError', "No root key ('posts') provided.");
    const title = typeof input.title === 'string' ? input.title : '(Untitled)';
    const status = typeof input.status === 'string' ? input.status : 'draft';
    const invalid = (context: string) =>
      ghostError(422, 'ValidationError', 'Validation error, cannot save post.', { context });
    if (isLength(title) > 255)
      return invalid('Value in [posts.title] exceeds maximum length of 255 characters.');
    if (!['published', 'draft', 'scheduled', 'sent'].includes(status))
      return invalid('Validation (isIn) failed for status');
    const alt = typeof input.feature_image_alt === 'string' ? input.feature_image_alt : null;
    if (alt && isLength(alt) > 191)
      return invalid('Value in [posts.feature_image_alt] exceeds maximum length of 191 characters.');
    const tags = (Array.isArray(input.tags) ? input.tags : []).map((t) =>
      typeof t === 'string' ? t : String((t as { name?: unknown }).name ?? ''),
    );
    const post: FakeGhostPost = {
      id: hexId(),
      uuid: randomUUID(),
      title,
      html: typeof input.html === 'string' ? input.html : '',
      status,
      slug:
        title
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '-')
          .replace(/^-|-$/g, '') || 'untitled',
      tags,
      featureImage: typeof input.feature_image === 'string' ? input.feature_image : null,
      featureImageAlt: alt,
      createdAt: new Date().toISOString(),
      source: req.query.get('source'),
    };
    this.posts.push(post);
    return { status: 201, json: { posts: [this.#postJson(post)] } };
  }

  async #upload(req: RecordedRequest): Promise<FakeResponse> {
    const file = req.files.file;
    if (!file) return ghostError(422, 'ValidationError', 'Please select an image.');
    const types = this.#options.imageTypes ?? [
      'image/jpeg',
      'image/png',
      'image/gif',
      'image/webp',
      'image/svg+xml',
    ];
    if (!types.includes(file.type)) {
      return ghostError(415, 'UnsupportedMediaTypeError', 'Please select a valid image file.');
    }
    const fields = (req.body ?? {}) as Record<string, string>;
    const image: FakeGhostImage = {
      url: `${this.url}/content/images/2026/11/${file.name}`,
      ref: fields.ref ?? null,
      filename: file.name,
      type: file.type,
      size: file.size,
    };
    this.images.push(image);
    return { status: 201, json: { images: [{ url: image.url, ref: image.ref }] } };
  }
}

export function startFakeGhost(options: FakeGhostOptions = {}): Promise<FakeGhost> {
  return new FakeGhost(options).start();
}
