import { type FakeResponse, FakeServer, type RecordedRequest } from './fake-server.ts';

export interface FakeListmonkList {
  id: number;
  name: string;
}

export interface FakeListmonkCampaign {
  id: number;
  uuid: string;
  name: string;
  subject: string;
  lists: FakeListmonkList[];
  contentType: string;
  body: string;
  type: string;
  status: 'draft' | 'scheduled' | 'running' | 'paused' | 'cancelled' | 'finished';
  createdAt: string;
}

export interface FakeListmonkMedia {
  id: number;
  filename: string;
  url: string;
  contentType: string;
}

export interface FakeListmonkOptions {
  /** API users: `username → token`. */
  users: Record<string, string>;
  lists?: FakeListmonkList[];
  /** A subdirectory Listmonk is served under (its root URL), e.g. `/listmonk`. */
  path?: string;
  /** API users whose role may not manage campaigns (403 "permission denied"). */
  readOnly?: string[];
}

type Json = Record<string, unknown>;
const fail = (status: number, message: string): FakeResponse => ({ status, json: { message } });
const contentTypes = new Set(['richtext', 'html', 'markdown', 'plain', 'visual']);
const mediaTypes = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/svg+xml']);
const maxInput = 2000;

/**
 * Listmonk's HTTP API (listmonk.app/docs/apis, v4+) as far as campaigns go: API users
 * (`Authorization: token <user>:<token>`, 403 when wrong), answers wrapped in `{ data }`, errors
 * as `{ message }`, lists, campaigns validated as Listmonk does (name and subject 1-2000
 * characters, existing lists, content types), the status transitions of
 * `PUT /api/campaigns/{id}/status` ("Only paused campaigns and drafts can be started") and the
 * media library (`POST /api/media`, multipart `file`).
 */
export class FakeListmonk {
  readonly server = new FakeServer();
  readonly campaigns: FakeListmonkCampaign[] = [];
  readonly media: FakeListmonkMedia[] = [];
  readonly lists: FakeListmonkList[];
  readonly #options: FakeListmonkOptions;
  #nextCampaign = 1;

  constructor(options: FakeListmonkOptions) {
    this.#options = options;
    this.lists = options.lists ?? [
      { id: 1, name: 'Default list' },
      { id: 3, name: 'Newsletter' },
    ];
    const p = (options.path ?? '').replace(/\/+$/, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const r = (tail: string) => new RegExp(`^${p}/api${tail}$`);
    const s = this.server;
    s.route('GET', r('/lists'), (req) => this.#authed(req, false, () => this.#listPage(req)));
    s.route('GET', r('/lists/(\\d+)'), (req, m) => this.#authed(req, false, () => this.#list(Number(m[1]))));
    s.route('GET', r('/campaigns'), (req) => this.#authed(req, false, () => this.#campaignPage(req)));
    s.route('GET', r('/campaigns/(\\d+)'), (req, m) =>
      this.#authed(req, false, () => this.#campaign(Number(m[1]))),
    );
    s.route('POST', r('/campaigns'), (req) => this.#authed(req, true, () => this.#create(req)));
    s.route('PUT', r('/campaigns/(\\d+)/status'), (req, m) =>
      this.#authed(req, true, () => this.#status(req, Number(m[1]))),
    );
    s.route('POST', r('/media'), (req) => this.#authed(req, true, () => this.#upload(req)));
    s.route('GET', /^.*\/uploads\//, () => ({ bytes: new Uint8Array([0]) }));
  }

  /** The root URL, as an account's `baseUrl`. */
  get url(): string {
    return `${this.server.url}${this.#options.path ?? ''}`;
  }

  credentials(username: string): { baseUrl: string; username: string; apiToken: string } {
    return { baseUrl: this.url, username, apiToken: this.#options.users[username]! };
  }

  async start(): Promise<this> {
    await this.server.start();
    return this;
  }

  close(): Promise<void> {
    return this.server.close();
  }

  #authed(req: RecordedRequest, write: boolean, handler: () => FakeResponse): FakeResponse {
    const match = /^token ([^:\s]+):(\S+)$/.exec(String(req.headers.authorization ?? ''));
    if (!match || this.#options.users[match[1]!] !== match[2]) return fail(403, 'Invalid API credentials');
    if (write && this.#options.readOnly?.includes(match[1]!)) return fail(403, 'permission denied');
    return handler();
  }

  #listPage(req: RecordedRequest): FakeResponse {
    const all = req.query.get('per_page') === 'all';
    const perPage = all ? this.lists.length : Number(req.query.get('per_page') ?? 20);
    return {
      json: {
        data: {
          results: this.lists.slice(0, perPage).map((l) => this.#listJson(l)),
          total: this.lists.length,
          per_page: perPage,
          page: 1,
        },
      },
    };
  }

  #list(id: number): FakeResponse {
    const list = this.lists.find((l) => l.id === id);
    return list ? { json: { data: this.#listJson(list) } } : fail(404, 'list not found');
  }

  #listJson(list: FakeListmonkList): Json {
    return {
      id: list.id,
      uuid: `00000000-0000-4000-8000-${String(list.id).padStart(12, '0')}`,
      name: list.name,
      type: 'public',
      optin: 'single',
      tags: [],
      subscriber_count: 42,
    };
  }

  #campaignJson(c: FakeListmonkCampaign): Json {
    return {
      id: c.id,
      uuid: c.uuid,
      name: c.name,
      subject: c.subject,
      lists: c.lists.map((l) => ({ id: l.id, name: l.name })),
      content_type: c.contentType,
      body: c.body,
      type: c.type,
      status: c.status,
      created_at: c.createdAt,
      updated_at: c.createdAt,
      from_email: 'Listmonk <noreply@listmonk.example>',
      messenger: 'email',
    };
  }

  #campaignPage(req: RecordedRequest): FakeResponse {
    const desc = (req.query.get('order') ?? 'desc').toLowerCase() === 'desc';
    const perPage = Number(req.query.get('per_page') ?? 20);
    const sorted = [...this.campaigns].sort((a, b) => (desc ? b.id - a.id : a.id - b.id));
    return {
      json: {
        data: {
          results: sorted.slice(0, perPage).map((c) => this.#campaignJson(c)),
          total: sorted.length,
          per_page: perPage,
          page: 1,
        },
      },
    };
  }

  #campaign(id: number): FakeResponse {
    const c = this.campaigns.find((x) => x.id === id);
    return c ? { json: { data: this.#campaignJson(c) } } : fail(404, 'campaign not found');
  }

  #create(req: RecordedRequest): FakeResponse {
    const input = (req.body ?? {}) as Json;
    const name = typeof input.name === 'string' ? input.name : '';
    const subject = typeof input.subject === 'string' ? input.subject : '';
    if ([...name.trim()].length < 1 || [...name].length > maxInput)
      return fail(400, 'invalid length for name');
    if ([...subject.trim()].length < 1 || [...subject].length > maxInput)
      return fail(400, 'invalid length for subject');
    const ids = Array.isArray(input.lists) ? input.lists : [];
    if (ids.length === 0 || ids.some((id) => typeof id !== 'number')) return fail(400, 'invalid lists');
    const lists = this.lists.filter((l) => ids.includes(l.id));
    if (lists.length !== ids.length) return fail(400, 'one or more lists not found');
    const contentType = typeof input.content_type === 'string' ? input.content_type : 'richtext';
    if (!contentTypes.has(contentType)) return fail(400, 'invalid content_type');
    const type = typeof input.type === 'string' ? input.type : 'regular';
    if (type !== 'regular' && type !== 'optin') return fail(400, 'invalid type');
    const id = this.#nextCampaign++;
    const campaign: FakeListmonkCampaign = {
      id,
      uuid: `c0000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
      name,
      subject,
      lists,
      contentType,
      body: typeof input.body === 'string' ? input.body : '',
      type,
      status: 'draft',
      createdAt: new Date().toISOString(),
    };
    this.campaigns.push(campaign);
    return { json: { data: this.#campaignJson(campaign) } };
  }

  #status(req: RecordedRequest, id: number): FakeResponse {
    const c = this.campaigns.find((x) => x.id === id);
    if (!c) return fail(404, 'campaign not found');
    const status = (req.body as Json | undefined)?.status;
    if (status === 'running') {
      if (c.status !== 'draft' && c.status !== 'paused' && c.status !== 'scheduled')
        return fail(400, 'Only paused campaigns and drafts can be started.');
    } else if (status === 'paused') {
      if (c.status !== 'running') return fail(400, 'Only active campaigns can be paused.');
    } else if (status === 'cancelled') {
      if (c.status !== 'running' && c.status !== 'paused')
        return fail(400, 'Only active campaigns can be cancelled.');
    } else return fail(400, 'invalid status');
    c.status = status;
    return { json: { data: this.#campaignJson(c) } };
  }

  #upload(req: RecordedRequest): FakeResponse {
    const file = req.files.file;
    if (!file) return fail(400, 'invalid file');
    if (!mediaTypes.has(file.type)) return fail(400, `unsupported file type (${file.type})`);
    const id = this.media.length + 1;
    const filename = `${id}-${file.name}`;
    const item = { id, filename, url: `${this.url}/uploads/${filename}`, contentType: file.type };
    this.media.push(item);
    return {
      json: {
        data: {
          id,
          uuid: `m-${id}`,
          filename,
          content_type: file.type,
          url: item.url,
          thumb_url: `${this.url}/uploads/thumb_${filename}`,
          created_at: new Date().toISOString(),
        },
      },
    };
  }
}

export function startFakeListmonk(options: FakeListmonkOptions): Promise<FakeListmonk> {
  return new FakeListmonk(options).start();
}
