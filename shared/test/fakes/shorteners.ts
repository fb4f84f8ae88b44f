import { type FakeResponse, FakeServer, type RecordedRequest } from './fake-server.ts';

/*
 * Faithful fakes of the three URL shorteners a workspace may use (docs/links.md), each after its
 * documented API: Shlink REST v3 (problem+json errors), Dub (`{ error: { code, message, doc_url } }`)
 * and Kutt v2 (`{ error }`). Each keeps its links, counts clicks a test sets with `click()`, and
 * takes injected failures (`server.inject`: 429 with Retry-After, 5xx, a slow answer).
 */

export interface FakeShortLink {
  id: string;
  code: string;
  longUrl: string;
  domain: string;
  shortUrl: string;
  clicks: number;
}

abstract class FakeShortener {
  readonly server = new FakeServer({ maxBodyBytes: 64 * 1024 });
  readonly links: FakeShortLink[] = [];
  readonly #keys: Set<string>;
  readonly #defaultDomain: string;
  #next = 1;

  constructor(keys: readonly string[], defaultDomain: string) {
    this.#keys = new Set(keys);
    this.#defaultDomain = defaultDomain;
  }

  get url(): string {
    return this.server.url;
  }

  /** Requests that created a link (what a test counts to see a link shortened once). */
  get creations(): RecordedRequest[] {
    return this.server.requests.filter((r) => r.method === 'POST');
  }

  /** Records `n` clicks on the short link. */
  click(shortUrl: string, n = 1): void {
    const link = this.links.find((l) => l.shortUrl === shortUrl);
    if (!link) throw new Error(`no short link ${shortUrl}`);
    link.clicks += n;
  }

  async start(): Promise<this> {
    await this.server.start();
    return this;
  }

  close(): Promise<void> {
    return this.server.close();
  }

  protected keyOk(key: unknown): boolean {
    return typeof key === 'string' && this.#keys.has(key);
  }

  protected create(longUrl: string, domain: string | undefined): FakeShortLink {
    const n = this.#next++;
    const code = `c${n.toString(36).padStart(4, '0')}`;
    const host = domain ?? this.#defaultDomain;
    const link: FakeShortLink = {
      id: this.idFor(n),
      code,
      longUrl,
      domain: host,
      shortUrl: `https://${host}/${code}`,
      clicks: 0,
    };
    this.links.push(link);
    return link;
  }

  protected abstract idFor(n: number): string;
}

function validUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

const body = (req: RecordedRequest) => (req.body ?? {}) as Record<string, unknown>;

/**
 * Shlink REST API v3: `X-Api-Key`; `POST /rest/v3/short-urls` `{ longUrl, domain?, findIfExists? }`
 * → 200 short URL; `GET /rest/v3/short-urls/{shortCode}` → with `visitsSummary`;
 * `GET /rest/v3/short-urls/{shortCode}/visits` → `{ visits: { data, pagination } }`. Errors are
 * `application/problem+json` `{ type, title, detail, status }`.
 */
export class FakeShlink extends FakeShortener {
  constructor(keys: readonly string[]) {
    super(keys, 's.test');
    const s = this.server;
    s.route('POST', /^\/rest\/v3\/short-urls$/, (req) => this.#authed(req, () => this.#create(req)));
    s.route('GET', /^\/rest\/v3\/short-urls\/([^/]+)\/visits$/, (req, m) =>
      this.#authed(req, () => {
        const link = this.#find(m[1]!, req.query.get('domain'));
        if (!link) return notFoundShlink(m[1]!);
        return {
          json: {
            visits: {
              data: [],
              pagination: {
                currentPage: 1,
                pagesCount: 1,
                itemsPerPage: 10,
                itemsInCurrentPage: 0,
                totalItems: link.clicks,
              },
            },
          },
        };
      }),
    );
    s.route('GET', /^\/rest\/v3\/short-urls\/([^/]+)$/, (req, m) =>
      this.#authed(req, () => {
        const link = this.#find(m[1]!, req.query.get('domain'));
        return link ? { json: this.#json(link) } : notFoundShlink(m[1]!);
      }),
    );
  }

  protected idFor(n: number): string {
    return String(n);
  }

  #authed(req: RecordedRequest, then: () => FakeResponse): FakeResponse {
    if (!this.keyOk(req.headers['x-api-key'])) {
      return problem(
        401,
        'invalid-api-key',
        'Invalid API key',
        'Provided API key does not exist or is invalid.',
      );
    }
    return then();
  }

  #create(req: RecordedRequest): FakeResponse {
    const { longUrl, domain, findIfExists } = body(req);
    if (!validUrl(longUrl)) {
      return {
        status: 400,
        headers: { 'content-type': 'application/problem+json' },
        json: {
          type: 'https://shlink.io/api/error/invalid-data',
          title: 'Invalid data',
          detail: 'Provided data is not valid',
          status: 400,
          invalidElements: ['longUrl'],
        },
      };
    }
    const host = typeof domain === 'string' && domain ? domain : undefined;
    const existing =
      findIfExists === true
        ? this.links.find((l) => l.longUrl === longUrl && l.domain === (host ?? 's.test'))
        : undefined;
    return { json: this.#json(existing ?? this.create(longUrl, host)) };
  }

  #find(code: string, domain: string | null): FakeShortLink | undefined {
    return this.links.find((l) => l.code === code && (!domain || l.domain === domain));
  }

  #json(link: FakeShortLink) {
    return {
      shortCode: link.code,
      shortUrl: link.shortUrl,
      longUrl: link.longUrl,
      dateCreated: '2026-01-01T00:00:00+00:00',
      visitsSummary: { total: link.clicks, nonBots: link.clicks, bots: 0 },
      tags: [],
      meta: { validSince: null, validUntil: null, maxVisits: null },
      domain: link.domain === 's.test' ? null : link.domain,
      title: null,
      crawlable: false,
      forwardQuery: true,
    };
  }
}

function problem(status: number, type: string, title: string, detail: string): FakeResponse {
  return {
    status,
    headers: { 'content-type': 'application/problem+json' },
    json: { type: `https://shlink.io/api/error/${type}`, title, detail, status },
  };
}

function notFoundShlink(code: string): FakeResponse {
  return problem(404, 'short-url-not-found', 'Short URL not found', `No URL found with short code "${code}"`);
}

/**
 * Dub's API: `Authorization: Bearer`; `POST /links` `{ url, domain? }` → 200 link
 * `{ id: "link_…", shortLink, clicks, … }`; `GET /links/info?linkId=` → the link. Errors:
 * `{ error: { code, message, doc_url } }` (401 `unauthorized`, 422 `unprocessable_entity`,
 * 404 `not_found`, 429 `rate_limit_exceeded` with Retry-After).
 */
export class FakeDub extends FakeShortener {
  constructor(keys: readonly string[]) {
    super(keys, 'dub.sh');
    const s = this.server;
    s.route('POST', /^\/links$/, (req) =>
      this.#authed(req, () => {
        const { url, domain } = body(req);
        if (!validUrl(url)) return dubError(422, 'unprocessable_entity', 'Invalid URL');
        const link = this.create(url, typeof domain === 'string' && domain ? domain : undefined);
        return { json: dubJson(link) };
      }),
    );
    s.route('GET', /^\/links\/info$/, (req) =>
      this.#authed(req, () => {
        const link = this.links.find((l) => l.id === req.query.get('linkId'));
        return link ? { json: dubJson(link) } : dubError(404, 'not_found', 'Link not found.');
      }),
    );
  }

  protected idFor(n: number): string {
    return `link_${String(n).padStart(24, '0')}`;
  }

  #authed(req: RecordedRequest, then: () => FakeResponse): FakeResponse {
    const auth = req.headers.authorization;
    const key = typeof auth === 'string' && auth.startsWith('Bearer ') ? auth.slice(7) : undefined;
    if (!this.keyOk(key)) return dubError(401, 'unauthorized', 'Unauthorized: Invalid API key.');
    return then();
  }
}

function dubJson(link: FakeShortLink) {
  return {
    id: link.id,
    domain: link.domain,
    key: link.code,
    url: link.longUrl,
    shortLink: link.shortUrl,
    clicks: link.clicks,
    archived: false,
    createdAt: '2026-01-01T00:00:00.000Z',
  };
}

function dubError(status: number, code: string, message: string): FakeResponse {
  return {
    status,
    json: {
      error: {
        code,
        message,
        doc_url: `https://dub.co/docs/api-reference/errors#${code.replaceAll('_', '-')}`,
      },
    },
  };
}

/**
 * Kutt's API v2: `X-API-KEY`; `POST /api/v2/links` `{ target, domain? }` → 201 link
 * `{ id, address, link, target, visit_count, … }`; `GET /api/v2/links/{id}/stats` → the link with
 * `visit_count` and its periods. Errors: `{ error }` (401 bad key, 400 bad target, 404).
 */
export class FakeKutt extends FakeShortener {
  constructor(keys: readonly string[]) {
    super(keys, 'kutt.test');
    const s = this.server;
    s.route('POST', /^\/api\/v2\/links$/, (req) =>
      this.#authed(req, () => {
        const { target, domain } = body(req);
        if (!validUrl(target)) return { status: 400, json: { error: 'URL is not valid.' } };
        const link = this.create(target, typeof domain === 'string' && domain ? domain : undefined);
        return { status: 201, json: kuttJson(link) };
      }),
    );
    s.route('GET', /^\/api\/v2\/links\/([^/]+)\/stats$/, (req, m) =>
      this.#authed(req, () => {
        const link = this.links.find((l) => l.id === m[1]);
        if (!link) return { status: 404, json: { error: 'Link could not be found.' } };
        const period = { stats: [], views: [], total: link.clicks };
        return {
          json: { ...kuttJson(link), lastDay: period, lastWeek: period, lastMonth: period, lastYear: period },
        };
      }),
    );
  }

  protected idFor(n: number): string {
    return `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  }

  #authed(req: RecordedRequest, then: () => FakeResponse): FakeResponse {
    if (!this.keyOk(req.headers['x-api-key']))
      return { status: 401, json: { error: 'API key is not correct.' } };
    return then();
  }
}

function kuttJson(link: FakeShortLink) {
  return {
    id: link.id,
    address: link.code,
    banned: false,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    link: link.shortUrl,
    target: link.longUrl,
    password: false,
    description: null,
    expire_in: null,
    visit_count: link.clicks,
  };
}

export async function startFakeShlink(keys: readonly string[] = ['shlink-key']): Promise<FakeShlink> {
  return new FakeShlink(keys).start();
}
export async function startFakeDub(keys: readonly string[] = ['dub_key']): Promise<FakeDub> {
  return new FakeDub(keys).start();
}
export async function startFakeKutt(keys: readonly string[] = ['kutt-key']): Promise<FakeKutt> {
  return new FakeKutt(keys).start();
}
