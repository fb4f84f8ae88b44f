import { type FakeResponse, FakeServer, type RecordedRequest } from './fake-server.ts';

export interface FakeMisskeyUser {
  id?: string;
  username: string;
  name?: string;
  followersCount?: number;
  /** Granted permissions; default all. */
  permissions?: string[];
  suspended?: boolean;
}

export interface FakeMisskeyOptions {
  /** Access token (`i`) → user. */
  tokens: Record<string, FakeMisskeyUser>;
  /** `maxNoteTextLength` in `/api/meta`; default 3000. */
  maxNoteTextLength?: number;
}

export interface FakeDriveFile {
  id: string;
  userId: string;
  name: string;
  type: string;
  size: number;
  comment: string | null;
  bytes: Buffer;
}

export interface FakeNote {
  id: string;
  userId: string;
  text: string | null;
  cw: string | null;
  visibility: string;
  fileIds: string[];
  replyId: string | null;
  createdAt: string;
  reactions: Record<string, number>;
  repliesCount: number;
  renoteCount: number;
  deleted?: boolean;
}

type User = FakeMisskeyUser & { id: string };

const apiError = (
  status: number,
  message: string,
  code: string,
  id: string,
  extra: object = {},
): FakeResponse => ({
  status,
  json: { error: { message, code, id, kind: status >= 500 ? 'server' : 'client', ...extra } },
});
const invalidParam = (param: string, reason: string) =>
  apiError(400, 'Invalid param.', 'INVALID_PARAM', '3d81ceae-475f-4600-b2a8-2bc116157532', {
    info: { param, reason },
  });

/**
 * A Misskey server as far as posting goes: every endpoint `POST /api/<name>` with the token as
 * `i` (JSON or multipart), errors as `{ error: { message, code, id, kind } }` (401
 * CREDENTIAL_REQUIRED, 403 AUTHENTICATION_FAILED, PERMISSION_DENIED, 429 RATE_LIMIT_EXCEEDED),
 * `meta` with `maxNoteTextLength`, drive uploads, `notes/create` checked like its JSON schema
 * (text in code points, `cw` ≤ 100, `fileIds` ≤ 16), `notes/show`, `users/notes` and `i`.
 */
export class FakeMisskey {
  readonly server = new FakeServer();
  readonly notes: FakeNote[] = [];
  readonly files = new Map<string, FakeDriveFile>();
  readonly #users = new Map<string, User>();
  readonly #maxNoteTextLength: number;
  #nextId = 0;

  constructor(options: FakeMisskeyOptions) {
    let n = 1;
    for (const [token, user] of Object.entries(options.tokens))
      this.#users.set(token, { ...user, id: user.id ?? `9user${n++}` });
    this.#maxNoteTextLength = options.maxNoteTextLength ?? 3000;
    this.#routes();
  }

  get url(): string {
    return this.server.url;
  }

  credentials(accessToken: string): Record<string, string> {
    return { instanceUrl: this.url, accessToken };
  }

  calls(endpoint: string): RecordedRequest[] {
    return this.server.requests.filter((r) => r.path === `/api/${endpoint}`);
  }

  /** The next `times` calls (optionally to one endpoint) answer 429 RATE_LIMIT_EXCEEDED. */
  rateLimit(options: { times?: number; endpoint?: string; retryAfterSeconds?: number } = {}): void {
    this.server.inject({
      times: options.times ?? 1,
      ...(options.endpoint ? { path: new RegExp(`^/api/${options.endpoint}$`) } : {}),
      ...apiError(
        429,
        'Rate limit exceeded. Please try again later.',
        'RATE_LIMIT_EXCEEDED',
        'd5826d14-3982-4d2e-8011-b9e9f02499ef',
        {
          info: { resetMs: (options.retryAfterSeconds ?? 0) * 1000 },
        },
      ),
    });
  }

  /** The next `times` calls fail like a server behind a proxy in trouble. */
  failWith(status: number, options: { times?: number; endpoint?: string } = {}): void {
    this.server.inject({
      times: options.times ?? 1,
      ...(options.endpoint ? { path: new RegExp(`^/api/${options.endpoint}$`) } : {}),
      status,
      headers: { 'content-type': 'text/html' },
      text: `<html><body><h1>${status}</h1></body></html>`,
    });
  }

  deleteNote(id: string): void {
    const note = this.notes.find((n) => n.id === id);
    if (note) note.deleted = true;
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
    s.route('POST', /^\/api\/meta$/, () => ({
      json: {
        name: 'Fake Misskey',
        version: '2025.1.0',
        uri: this.url,
        maxNoteTextLength: this.#maxNoteTextLength,
      },
    }));
    s.route('POST', /^\/api\/i$/, (req) =>
      this.#authed(req, 'read:account', (user) => ({ json: this.#me(user) })),
    );
    s.route('POST', /^\/api\/drive\/files\/create$/, (req) =>
      this.#authed(req, 'write:drive', (user) => this.#upload(req, user)),
    );
    s.route('POST', /^\/api\/notes\/create$/, (req) =>
      this.#authed(req, 'write:notes', (user) => this.#create(req, user)),
    );
    s.route('POST', /^\/api\/notes\/show$/, (req) => this.#show(req));
    s.route('POST', /^\/api\/users\/notes$/, (req) => this.#userNotes(req));
    s.route('POST', /.*/, () =>
      apiError(404, 'No such endpoint.', 'NO_SUCH_ENDPOINT', '7c6c4d4c-38bd-4a5c-9b6a-d6b5c5f08c5d'),
    );
  }

  #authed(
    req: RecordedRequest,
    permission: string,
    handler: (user: User) => FakeResponse | Promise<FakeResponse>,
  ) {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const token = typeof body.i === 'string' ? body.i : undefined;
    if (token === undefined)
      return apiError(
        401,
        'Credential required.',
        'CREDENTIAL_REQUIRED',
        '1384574d-a912-4b81-8601-c7b1c4085df1',
      );
    const user = this.#users.get(token);
    if (!user)
      return apiError(
        403,
        'Authentication failed. Please ensure your token is correct.',
        'AUTHENTICATION_FAILED',
        'b0a7f5f8-dc2f-4171-b91f-de88ad238e14',
      );
    if (user.suspended)
      return apiError(
        403,
        'Your account has been suspended.',
        'YOUR_ACCOUNT_SUSPENDED',
        'a8c724b3-6e9c-4b46-b1a8-bc3ed6258370',
      );
    if (user.permissions && !user.permissions.includes(permission))
      return apiError(
        400,
        'Your app does not have the necessary permissions to use this endpoint.',
        'PERMISSION_DENIED',
        '1370e5b7-d4eb-4566-bb1d-7748ee6a1838',
      );
    return handler(user);
  }

  #me(user: User): Record<string, unknown> {
    return {
      id: user.id,
      username: user.username,
      name: user.name ?? null,
      host: null,
      avatarUrl: `${this.url}/avatar/${user.id}`,
      followersCount: user.followersCount ?? 0,
      followingCount: 0,
      notesCount: this.notes.filter((n) => n.userId === user.id).length,
    };
  }

  async #upload(req: RecordedRequest, user: User): Promise<FakeResponse> {
    const file = req.files.file;
    if (!file) return invalidParam('file', 'required');
    const fields = (req.body ?? {}) as Record<string, string>;
    const comment = fields.comment ?? null;
    if (comment !== null && [...comment].length > 512)
      return invalidParam('#/properties/comment/maxLength', 'must NOT have more than 512 characters');
    const drive: FakeDriveFile = {
      id: this.#id(),
      userId: user.id,
      name: fields.name ?? file.name,
      type: file.type,
      size: file.size,
      comment,
      bytes: Buffer.from(await file.arrayBuffer()),
    };
    this.files.set(drive.id, drive);
    return {
      json: {
        id: drive.id,
        name: drive.name,
        type: drive.type,
        size: drive.size,
        comment,
        url: `${this.url}/files/${drive.id}`,
        isSensitive: false,
      },
    };
  }

  #create(req: RecordedRequest, user: User): FakeResponse {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const text = body.text;
    const fileIds = body.fileIds;
    const visibility = body.visibility ?? 'public';
    if (text !== undefined && (typeof text !== 'string' || text.length === 0))
      return invalidParam('#/properties/text/minLength', 'must NOT have fewer than 1 characters');
    if (typeof text === 'string' && [...text].length > this.#maxNoteTextLength)
      return invalidParam(
        '#/properties/text/maxLength',
        `must NOT have more than ${this.#maxNoteTextLength} characters`,
      );
    if (
      body.cw !== undefined &&
      body.cw !== null &&
      (typeof body.cw !== 'string' || [...body.cw].length > 100)
    )
      return invalidParam('#/properties/cw/maxLength', 'must NOT have more than 100 characters');
    if (!['public', 'home', 'followers', 'specified'].includes(String(visibility)))
      return invalidParam('#/properties/visibility/enum', 'must be equal to one of the allowed values');
    if (fileIds !== undefined) {
      if (
        !Array.isArray(fileIds) ||
        fileIds.length < 1 ||
        fileIds.length > 16 ||
        new Set(fileIds).size !== fileIds.length
      )
        return invalidParam('#/properties/fileIds', 'must NOT have more than 16 items');
      if (fileIds.some((id) => this.files.get(String(id))?.userId !== user.id))
        return apiError(
          400,
          'Some files are not found.',
          'NO_SUCH_FILE',
          'b6992544-63e7-67f0-fa7f-32444b1b5306',
        );
    }
    if (text === undefined && fileIds === undefined)
      return invalidParam('#/anyOf', 'must match a schema in anyOf');
    const replyId = typeof body.replyId === 'string' ? body.replyId : null;
    const reply = replyId ? this.notes.find((n) => n.id === replyId && !n.deleted) : undefined;
    if (replyId && !reply)
      return apiError(
        400,
        'No such reply target.',
        'NO_SUCH_REPLY_TARGET',
        '749ee0f6-d3da-459a-bf02-282e2da4292c',
      );
    if (reply) reply.repliesCount++;
    const note: FakeNote = {
      id: this.#id(),
      userId: user.id,
      text: typeof text === 'string' ? text : null,
      cw: typeof body.cw === 'string' ? body.cw : null,
      visibility: String(visibility),
      fileIds: Array.isArray(fileIds) ? fileIds.map(String) : [],
      replyId,
      createdAt: new Date().toISOString(),
      reactions: {},
      repliesCount: 0,
      renoteCount: 0,
    };
    this.notes.push(note);
    return { json: { createdNote: this.#noteJson(note) } };
  }

  #show(req: RecordedRequest): FakeResponse {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const note = this.notes.find((n) => n.id === body.noteId && !n.deleted);
    if (!note) return apiError(400, 'No such note.', 'NO_SUCH_NOTE', '24fcbfc6-2e37-42b6-8388-c29b3861a08d');
    return { json: this.#noteJson(note) };
  }

  #userNotes(req: RecordedRequest): FakeResponse {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const since = typeof body.sinceDate === 'number' ? body.sinceDate : 0;
    const limit = typeof body.limit === 'number' ? body.limit : 10;
    const notes = this.notes
      .filter((n) => n.userId === body.userId && !n.deleted && Date.parse(n.createdAt) >= since)
      .reverse()
      .slice(0, limit);
    return { json: notes.map((n) => this.#noteJson(n)) };
  }

  #noteJson(note: FakeNote): Record<string, unknown> {
    const reactionCount = Object.values(note.reactions).reduce((a, b) => a + b, 0);
    return {
      id: note.id,
      createdAt: note.createdAt,
      userId: note.userId,
      text: note.text,
      cw: note.cw,
      visibility: note.visibility,
      fileIds: note.fileIds,
      files: note.fileIds.map((id) => ({ id, url: `${this.url}/files/${id}` })),
      replyId: note.replyId,
      renoteId: null,
      reactions: note.reactions,
      reactionCount,
      repliesCount: note.repliesCount,
      renoteCount: note.renoteCount,
      uri: undefined,
    };
  }

  #id(): string {
    this.#nextId++;
    return `9k${Date.now().toString(36)}${String(this.#nextId).padStart(4, '0')}`;
  }
}

export function startFakeMisskey(options: FakeMisskeyOptions): Promise<FakeMisskey> {
  return new FakeMisskey(options).start();
}
