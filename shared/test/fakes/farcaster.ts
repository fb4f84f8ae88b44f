import { createHash } from 'node:crypto';
import { type FakeResponse, FakeServer, type RecordedRequest } from './fake-server.ts';

/*
 * A fake of Neynar's Farcaster API v2 as documented at https://docs.neynar.com/reference:
 * `x-api-key` on every call (401 otherwise), `GET /v2/farcaster/signer?signer_uuid=` (status
 * generated / pending_approval / approved / revoked, fid), `GET /v2/farcaster/user/bulk?fids=`,
 * `POST /v2/farcaster/cast` `{ signer_uuid, text, embeds, channel_id, idem }` (text up to 320
 * bytes, 1024 for Pro accounts; at most 2 embeds of at most 256 bytes; an unapproved signer
 * answers 403 SignerNotApproved; an unknown channel 404; the same `idem` from the same signer
 * answers the cast it already made), errors as `{ code, message, property?, status }`, 429 with
 * `x-ratelimit-*` headers.
 */

export interface FakeFarcasterUser {
  fid: number;
  username: string;
  displayName?: string;
  /** Farcaster Pro: long casts (up to 1024 bytes) allowed. */
  pro?: boolean;
}

export interface FakeCast {
  hash: string;
  fid: number;
  text: string;
  embeds: { url: string }[];
  channelId: string | null;
  idem: string | null;
}

export interface FakeFarcasterOptions {
  apiKey?: string;
  users?: FakeFarcasterUser[];
  /** signer uuid → fid and status. */
  signers?: Record<
    string,
    { fid: number; status?: 'generated' | 'pending_approval' | 'approved' | 'revoked' }
  >;
  channels?: string[];
}

const neynarError = (status: number, code: string, message: string, property?: string): FakeResponse => ({
  status,
  json: { code, message, ...(property ? { property } : {}), status },
});

export class FakeFarcaster {
  readonly server = new FakeServer();
  readonly apiKey: string;
  readonly users: FakeFarcasterUser[];
  readonly signers: Map<string, { fid: number; status: string }>;
  readonly channels: Set<string>;
  readonly casts: FakeCast[] = [];

  constructor(options: FakeFarcasterOptions = {}) {
    this.apiKey = options.apiKey ?? 'NEYNAR_FAKE_KEY';
    this.users = options.users ?? [{ fid: 1042, username: 'alice', displayName: 'Alice' }];
    this.signers = new Map(
      Object.entries(
        options.signers ?? { '19d0c5fd-9b33-4a48-a0e2-bc7b0555baec': { fid: 1042, status: 'approved' } },
      ).map(([uuid, s]) => [uuid, { fid: s.fid, status: s.status ?? 'approved' }]),
    );
    this.channels = new Set(options.channels ?? ['farcaster', 'dev']);
    this.#routes();
  }

  get url(): string {
    return this.server.url;
  }

  env(): Record<string, string> {
    return { FARCASTER_API_URL: this.url, NEYNAR_API_KEY: this.apiKey };
  }

  /** The next `times` calls answer 429, resetting in `resetSeconds`. */
  rateLimit(options: { times?: number; resetSeconds?: number } = {}): void {
    const reset = Math.floor(Date.now() / 1000) + (options.resetSeconds ?? 60);
    this.server.inject({
      times: options.times ?? 1,
      ...neynarError(429, 'RateLimitExceeded', 'Rate limit exceeded'),
      headers: {
        'x-ratelimit-limit': '300',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(reset),
      },
    });
  }

  calls(path: string): RecordedRequest[] {
    return this.server.requests.filter((r) => r.path === path);
  }

  async start(): Promise<this> {
    await this.server.start();
    return this;
  }

  close(): Promise<void> {
    return this.server.close();
  }

  #keyed(request: RecordedRequest, handle: () => FakeResponse): FakeResponse {
    if (request.headers['x-api-key'] !== this.apiKey)
      return neynarError(401, 'Unauthorized', 'Invalid or missing API key');
    return handle();
  }

  #routes(): void {
    this.server
      .route('GET', /^\/v2\/farcaster\/signer$/, (r) =>
        this.#keyed(r, () => {
          const uuid = r.query.get('signer_uuid') ?? '';
          const signer = this.signers.get(uuid);
          if (!signer) return neynarError(404, 'NotFound', 'Signer not found', 'signer_uuid');
          return {
            json: {
              object: 'signer',
              signer_uuid: uuid,
              public_key: `0x${createHash('sha256').update(uuid).digest('hex')}`,
              status: signer.status,
              ...(signer.status === 'approved' ? { fid: signer.fid } : {}),
            },
          };
        }),
      )
      .route('GET', /^\/v2\/farcaster\/user\/bulk$/, (r) =>
        this.#keyed(r, () => {
          const fids = (r.query.get('fids') ?? '').split(',').map(Number);
          return {
            json: {
              users: this.users
                .filter((u) => fids.includes(u.fid))
                .map((u) => ({
                  object: 'user',
                  fid: u.fid,
                  username: u.username,
                  display_name: u.displayName ?? u.username,
                  pfp_url: `https://imagedelivery.example/${u.username}.png`,
                  follower_count: 10,
                })),
            },
          };
        }),
      )
      .route('POST', /^\/v2\/farcaster\/cast$/, (r) => this.#keyed(r, () => this.#cast(r)));
  }

  #cast(request: RecordedRequest): FakeResponse {
    // biome-ignore lint/suspicious/noExplicitAny: the body as sent
    const body = (request.body ?? {}) as any;
    const signer = this.signers.get(String(body.signer_uuid ?? ''));
    if (!signer) return neynarError(404, 'NotFound', 'Signer not found', 'signer_uuid');
    if (signer.status !== 'approved')
      return neynarError(403, 'SignerNotApproved', 'Signer is not approved', 'signer_uuid');
    const user = this.users.find((u) => u.fid === signer.fid)!;
    if (typeof body.text !== 'string') return neynarError(400, 'InvalidField', 'text is required', 'text');
    const bytes = Buffer.byteLength(body.text, 'utf8');
    if (bytes > 1024 || (bytes > 320 && !user.pro))
      return neynarError(400, 'InvalidField', `Text is too long (${bytes} bytes)`, 'text');
    const embeds = body.embeds ?? [];
    if (!Array.isArray(embeds) || embeds.length > 2)
      return neynarError(400, 'InvalidField', 'At most 2 embeds', 'embeds');
    for (const embed of embeds) {
      if (typeof embed?.url !== 'string' || Buffer.byteLength(embed.url) > 256)
        return neynarError(400, 'InvalidField', 'Embed URL invalid or longer than 256 bytes', 'embeds');
    }
    if (body.channel_id !== undefined && !this.channels.has(body.channel_id))
      return neynarError(404, 'NotFound', 'Channel not found', 'channel_id');
    if (body.idem !== undefined && (typeof body.idem !== 'string' || body.idem.length > 16))
      return neynarError(400, 'InvalidField', 'idem must be a string of up to 16 characters', 'idem');
    const earlier = body.idem
      ? this.casts.find((c) => c.fid === signer.fid && c.idem === body.idem)
      : undefined;
    const cast =
      earlier ??
      ({
        hash: `0x${createHash('sha1').update(`${signer.fid}:${this.casts.length}:${body.text}`).digest('hex')}`,
        fid: signer.fid,
        text: body.text,
        embeds,
        channelId: body.channel_id ?? null,
        idem: body.idem ?? null,
      } satisfies FakeCast);
    if (!earlier) this.casts.push(cast);
    return {
      json: {
        success: true,
        cast: { hash: cast.hash, author: { fid: user.fid, username: user.username }, text: cast.text },
      },
    };
  }
}

export async function startFakeFarcaster(options: FakeFarcasterOptions = {}): Promise<FakeFarcaster> {
  return new FakeFarcaster(options).start();
}
