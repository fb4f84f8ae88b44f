import { randomBytes } from 'node:crypto';
import { type FakeResponse, FakeServer, type RecordedRequest } from './fake-server.ts';

/**
 * A fake Matrix homeserver as a posting client uses it (Client-Server API v1.11, Synapse's
 * behaviour where the spec leaves room): `/versions`, optional `.well-known` delegation, Bearer
 * tokens (401 M_UNKNOWN_TOKEN), whoami, joined rooms, the room directory, state events
 * (membership, power levels, name), `PUT …/send/{type}/{txnId}` with transaction ids deduplicated per access token
 * and endpoint, the 65,536-byte event limit (413 M_TOO_LARGE), the content repository
 * (`POST /_matrix/media/v3/upload`, media config) and M_LIMIT_EXCEEDED with `retry_after_ms`.
 */
export interface FakeMatrixRoom {
  id: string;
  name?: string;
  alias?: string;
  /** user id → membership (`join`, `invite`, `leave`). */
  members: Map<string, string>;
  powerLevels: {
    users: Record<string, number>;
    users_default: number;
    events: Record<string, number>;
    events_default: number;
  };
}

export interface FakeMatrixEvent {
  eventId: string;
  roomId: string;
  sender: string;
  type: string;
  txnId: string;
  content: Record<string, unknown>;
}

export interface FakeMatrixUpload {
  uri: string;
  filename: string | null;
  contentType: string;
  bytes: Buffer;
  path: string;
}

export interface FakeMatrixOptions {
  serverName?: string;
  /** Spec versions `/_matrix/client/versions` lists (default up to v1.11). */
  versions?: string[];
  maxUploadBytes?: number;
  /** The legacy `/_matrix/media/*` endpoints answer 404 M_UNRECOGNIZED (a server that retired them). */
  legacyMedia?: boolean;
  /**
   * `POST /_matrix/client/v1/media/upload` is served. The spec (through v1.18) has no such
   * endpoint, so by default it answers 404 M_UNRECOGNIZED, as Synapse does.
   */
  clientMediaUpload?: boolean;
}

/** What the homeserver adds around a client's content (room id, sender, hashes, signatures, prev and auth events). */
const simulatedEnvelopeBytes = 800;

export class FakeMatrix {
  readonly server = new FakeServer();
  readonly serverName: string;
  readonly versions: string[];
  readonly maxUploadBytes: number;
  readonly legacyMedia: boolean;
  readonly clientMediaUpload: boolean;
  readonly rooms = new Map<string, FakeMatrixRoom>();
  readonly events: FakeMatrixEvent[] = [];
  readonly uploads: FakeMatrixUpload[] = [];
  /** Where `.well-known/matrix/client` delegates to; none when undefined (404). */
  delegateTo: string | undefined;
  readonly #tokens = new Map<string, string>();
  readonly #transactions = new Map<string, string>();

  constructor(options: FakeMatrixOptions = {}) {
    this.serverName = options.serverName ?? 'fake.matrix.test';
    this.versions = options.versions ?? ['r0.6.1', 'v1.1', 'v1.5', 'v1.8', 'v1.10', 'v1.11'];
    this.maxUploadBytes = options.maxUploadBytes ?? 50 * 1024 * 1024;
    this.legacyMedia = options.legacyMedia ?? true;
    this.clientMediaUpload = options.clientMediaUpload ?? false;
    const s = this.server;
    s.route('GET', /^\/_matrix\/client\/versions$/, () => ({
      json: { versions: this.versions, unstable_features: {} },
    }));
    s.route('GET', /^\/\.well-known\/matrix\/client$/, () =>
      this.delegateTo
        ? { json: { 'm.homeserver': { base_url: this.delegateTo } } }
        : { status: 404, text: 'Not Found' },
    );
    s.route('GET', /^\/_matrix\/client\/v3\/account\/whoami$/, (r) =>
      this.#authed(r, (user) => ({ json: { user_id: user, device_id: 'FAKEDEVICE', is_guest: false } })),
    );
    s.route('GET', /^\/_matrix\/client\/v3\/joined_rooms$/, (r) =>
      this.#authed(r, (user) => ({
        json: {
          joined_rooms: [...this.rooms.values()]
            .filter((room) => room.members.get(user) === 'join')
            .map((room) => room.id),
        },
      })),
    );
    s.route('GET', /^\/_matrix\/client\/v3\/directory\/room\/([^/]+)$/, (r, m) =>
      this.#authed(r, () => this.#alias(decodeURIComponent(m[1]!))),
    );
    s.route('GET', /^\/_matrix\/client\/v3\/rooms\/([^/]+)\/state\/([^/]+)\/([^/]*)$/, (r, m) =>
      this.#authed(r, (user) =>
        this.#state(user, decodeURIComponent(m[1]!), decodeURIComponent(m[2]!), decodeURIComponent(m[3]!)),
      ),
    );
    s.route('PUT', /^\/_matrix\/client\/v3\/rooms\/([^/]+)\/send\/([^/]+)\/([^/]+)$/, (r, m) =>
      this.#authed(r, (user, token) =>
        this.#send(
          r,
          user,
          token,
          decodeURIComponent(m[1]!),
          decodeURIComponent(m[2]!),
          decodeURIComponent(m[3]!),
        ),
      ),
    );
    s.route('POST', /^\/_matrix\/(media\/v3|client\/v1\/media)\/upload$/, (r, m) =>
      this.#authed(r, () => this.#upload(r, m[1] === 'media/v3')),
    );
    s.route('GET', /^\/_matrix\/(media\/v3|client\/v1\/media)\/config$/, (r, m) =>
      this.#authed(r, () =>
        m[1] === 'media/v3' && !this.legacyMedia
          ? unrecognized()
          : { json: { 'm.upload.size': this.maxUploadBytes } },
      ),
    );
    for (const method of ['GET', 'POST', 'PUT']) s.route(method, /.*/, () => unrecognized());
  }

  get url(): string {
    return this.server.url;
  }

  /** A user with an access token; `rooms` are joined. */
  addUser(localpart: string, rooms: string[] = []): { userId: string; accessToken: string } {
    const userId = `@${localpart}:${this.serverName}`;
    const accessToken = `syt_${Buffer.from(localpart).toString('base64url')}_${randomBytes(12).toString('base64url')}`;
    this.#tokens.set(accessToken, userId);
    for (const room of rooms) this.rooms.get(room)?.members.set(userId, 'join');
    return { userId, accessToken };
  }

  logout(accessToken: string): void {
    this.#tokens.delete(accessToken);
  }

  addRoom(init: { name?: string; alias?: string; localpart?: string } = {}): FakeMatrixRoom {
    const room: FakeMatrixRoom = {
      id: `!${init.localpart ?? randomBytes(9).toString('base64url')}:${this.serverName}`,
      ...(init.name ? { name: init.name } : {}),
      ...(init.alias ? { alias: init.alias } : {}),
      members: new Map(),
      powerLevels: { users: {}, users_default: 0, events: { 'm.room.name': 50 }, events_default: 0 },
    };
    this.rooms.set(room.id, room);
    return room;
  }

  credentials(accessToken: string): Record<string, string> {
    return { homeserverUrl: this.url, accessToken };
  }

  /** The next `times` matching requests answer 429 M_LIMIT_EXCEEDED, as Synapse's rate limiter. */
  rateLimit(options: { retryAfterMs?: number; times?: number; path?: RegExp } = {}): void {
    const retryAfterMs = options.retryAfterMs ?? 0;
    this.server.inject({
      times: options.times ?? 1,
      path: options.path ?? /\/send\//,
      status: 429,
      headers: { 'retry-after': String(Math.ceil(retryAfterMs / 1000)) },
      json: { errcode: 'M_LIMIT_EXCEEDED', error: 'Too Many Requests', retry_after_ms: retryAfterMs },
    });
  }

  /** Requests to paths matching `path`, in order. */
  calls(path: RegExp, method?: string): RecordedRequest[] {
    return this.server.requests.filter((r) => path.test(r.path) && (!method || r.method === method));
  }

  start(): Promise<FakeServer> {
    return this.server.start();
  }
  close(): Promise<void> {
    return this.server.close();
  }

  #authed(
    request: RecordedRequest,
    handler: (user: string, token: string) => FakeResponse | Promise<FakeResponse>,
  ): FakeResponse | Promise<FakeResponse> {
    const header = String(request.headers.authorization ?? '');
    const token = header.startsWith('Bearer ') ? header.slice(7) : request.query.get('access_token');
    if (!token) return matrixError(401, 'M_MISSING_TOKEN', 'Missing access token');
    const user = this.#tokens.get(token);
    if (!user)
      return {
        status: 401,
        json: { errcode: 'M_UNKNOWN_TOKEN', error: 'Invalid access token passed.', soft_logout: false },
      };
    return handler(user, token);
  }

  #alias(alias: string): FakeResponse {
    const room = [...this.rooms.values()].find((r) => r.alias === alias);
    if (!room) return matrixError(404, 'M_NOT_FOUND', `Room alias ${alias} not found`);
    return { json: { room_id: room.id, servers: [this.serverName] } };
  }

  #state(user: string, roomId: string, type: string, key: string): FakeResponse {
    const room = this.rooms.get(roomId);
    const membership = room?.members.get(user);
    if (!room || (membership !== 'join' && !(type === 'm.room.member' && key === user && membership))) {
      return matrixError(
        403,
        'M_FORBIDDEN',
        `User ${user} not in room ${roomId}, and room previews are disabled`,
      );
    }
    const content = stateContent(room, type, key);
    if (!content) return matrixError(404, 'M_NOT_FOUND', 'Event not found.');
    return { json: content };
  }

  #send(
    request: RecordedRequest,
    user: string,
    token: string,
    roomId: string,
    type: string,
    txnId: string,
  ): FakeResponse {
    // Synapse keeps transaction ids per access token and endpoint: a resend gets the same event.
    const key = `${token}\u0000${request.path}`;
    const known = this.#transactions.get(key);
    if (known) return { json: { event_id: known } };
    const room = this.rooms.get(roomId);
    if (room?.members.get(user) !== 'join')
      return matrixError(403, 'M_FORBIDDEN', `User ${user} not in room ${roomId}`);
    const level = room.powerLevels.users[user] ?? room.powerLevels.users_default;
    const needed = room.powerLevels.events[type] ?? room.powerLevels.events_default;
    if (level < needed) {
      return matrixError(
        403,
        'M_FORBIDDEN',
        `You don't have permission to post that to the room. user_level (${level}) < send_level (${needed})`,
      );
    }
    const content = request.body;
    if (!content || typeof content !== 'object' || Array.isArray(content))
      return matrixError(400, 'M_NOT_JSON', 'Content not JSON.');
    if (Buffer.byteLength(request.rawBody) + simulatedEnvelopeBytes > 65_536)
      return matrixError(413, 'M_TOO_LARGE', 'event too large');
    const event: FakeMatrixEvent = {
      eventId: `$${randomBytes(32).toString('base64url')}`,
      roomId,
      sender: user,
      type,
      txnId,
      content: content as Record<string, unknown>,
    };
    this.events.push(event);
    this.#transactions.set(key, event.eventId);
    return { json: { event_id: event.eventId } };
  }

  #upload(request: RecordedRequest, legacy: boolean): FakeResponse {
    if (legacy ? !this.legacyMedia : !this.clientMediaUpload) return unrecognized();
    if (request.rawBody.length > this.maxUploadBytes)
      return matrixError(413, 'M_TOO_LARGE', 'Upload request body is too large');
    const contentType = String(request.headers['content-type'] ?? 'application/octet-stream');
    const uri = `mxc://${this.serverName}/${randomBytes(12).toString('base64url')}`;
    this.uploads.push({
      uri,
      filename: request.query.get('filename'),
      contentType,
      bytes: request.rawBody,
      path: request.path,
    });
    return { json: { content_uri: uri } };
  }
}

function stateContent(room: FakeMatrixRoom, type: string, key: string): Record<string, unknown> | undefined {
  if (type === 'm.room.member') {
    const membership = room.members.get(key);
    return membership ? { membership } : undefined;
  }
  if (key !== '') return undefined;
  if (type === 'm.room.power_levels') return { ...room.powerLevels };
  if (type === 'm.room.name') return room.name ? { name: room.name } : undefined;
  if (type === 'm.room.canonical_alias') return room.alias ? { alias: room.alias } : undefined;
  return undefined;
}

function matrixError(status: number, errcode: string, error: string): FakeResponse {
  return { status, json: { errcode, error } };
}

function unrecognized(): FakeResponse {
  return matrixError(404, 'M_UNRECOGNIZED', 'Unrecognized request');
}

export async function startFakeMatrix(options: FakeMatrixOptions = {}): Promise<FakeMatrix> {
  const fake = new FakeMatrix(options);
  await fake.start();
  return fake;
}
