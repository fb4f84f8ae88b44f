import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as a fake platform received it, kept so tests can assert on what was sent. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, urlencoded or multipart fields (files appear as File objects); undefined otherwise. */
  body: unknown;
  /** Multipart files by field name. */
  files: Record<string, File>;
  rawBody: Buffer;
}

export interface FakeResponse {
  status?: number;
  headers?: Record<string, string>;
  json?: unknown;
  text?: string;
  /** A binary body (media files). */
  bytes?: Uint8Array;
  /** Hold the answer this long (to simulate slow platforms and timeouts). */
  delayMs?: number;
  /** Destroy the socket without answering (a dropped connection). */
  drop?: boolean;
}

export type FakeHandler = (
  request: RecordedRequest,
  match: RegExpMatchArray,
) => FakeResponse | Promise<FakeResponse>;

export interface Route {
  method: string;
  pattern: RegExp;
  handler: FakeHandler;
}

/** A failure to return instead of the real answer, for the next `times` matching requests. */
export interface InjectedFailure extends FakeResponse {
  times?: number;
  /** Only requests whose path matches; all requests when absent. */
  path?: RegExp;
}

/**
 * Requests held unanswered and unhandled until `release()`: a send in flight, so a test can kill
 * its sender meanwhile. A held request whose caller goes away is dropped, never handled (the
 * platform did not act on it); once released, those still waiting are handled as usual and later
 * ones pass.
 */
export class HeldRequests {
  /** Every request held, in arrival order (each is also in the server's `requests`). */
  readonly requests: RecordedRequest[] = [];
  readonly #waiting = new Set<(handle: boolean) => void>();
  #released = false;

  /** Which requests it holds (by path); all when undefined. */
  readonly path: RegExp | undefined;

  constructor(path: RegExp | undefined) {
    this.path = path;
  }

  /** How many held requests still wait: their caller is connected and they are not released. */
  get waiting(): number {
    return this.#waiting.size;
  }

  get released(): boolean {
    return this.#released;
  }

  release(): void {
    this.#released = true;
    for (const resume of [...this.#waiting]) resume(true);
  }

  /** Resolves true to handle the request (released), false when its caller went away first. */
  hold(request: RecordedRequest, res: ServerResponse): Promise<boolean> {
    this.requests.push(request);
    return new Promise((resolve) => {
      const resume = (handle: boolean) => {
        this.#waiting.delete(resume);
        res.off('close', gone);
        resolve(handle);
      };
      const gone = () => resume(false);
      this.#waiting.add(resume);
      res.once('close', gone);
    });
  }
}

/**
 * A tiny HTTP server for fake platforms: routes by method and path pattern, parses JSON,
 * urlencoded and multipart bodies (with the platform's own size limit), records every
 * request and can inject failures. Platform fakes build their documented behaviour on it.
 */
export class FakeServer {
  readonly requests: RecordedRequest[] = [];
  readonly #routes: Route[] = [];
  readonly #failures: InjectedFailure[] = [];
  readonly #holds: HeldRequests[] = [];
  readonly #server: Server;
  readonly #maxBodyBytes: number;
  #url = '';

  constructor(options: { maxBodyBytes?: number } = {}) {
    this.#maxBodyBytes = options.maxBodyBytes ?? 200 * 1024 * 1024;
    this.#server = createServer((req, res) => {
      this.#handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(error));
      });
    });
  }

  route(method: string, pattern: RegExp, handler: FakeHandler): this {
    this.#routes.push({ method, pattern, handler });
    return this;
  }

  /** Answer the next matching request(s) with this instead of the normal behaviour. */
  inject(failure: InjectedFailure): this {
    this.#failures.push({ times: 1, ...failure });
    return this;
  }

  clearInjected(): void {
    this.#failures.length = 0;
  }

  /** Holds the requests matching `path` (all when absent) from now until the answer's `release()`. */
  hold(path?: RegExp): HeldRequests {
    const held = new HeldRequests(path);
    this.#holds.push(held);
    return held;
  }

  get url(): string {
    return this.#url;
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    const { port } = this.#server.address() as AddressInfo;
    this.#url = `http://127.0.0.1:${port}`;
    return this;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const rawBody = await readBody(req, this.#maxBodyBytes);
    if (rawBody === 'too_large') return send(res, { status: 413, text: 'Request Entity Too Large' });
    const recorded: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body: undefined,
      files: {},
      rawBody,
    };
    await parseBody(recorded);
    this.requests.push(recorded);
    const held = this.#holds.find((h) => !h.released && (!h.path || h.path.test(recorded.path)));
    if (held && !(await held.hold(recorded, res))) return;

    const failure = this.#takeFailure(recorded.path);
    if (failure) return send(res, failure);
    for (const route of this.#routes) {
      if (route.method !== recorded.method) continue;
      const match = recorded.path.match(route.pattern);
      if (match) return send(res, await route.handler(recorded, match));
    }
    send(res, { status: 404, json: { error: `fake: no route for ${recorded.method} ${recorded.path}` } });
  }

  #takeFailure(path: string): InjectedFailure | undefined {
    const index = this.#failures.findIndex((f) => !f.path || f.path.test(path));
    if (index < 0) return undefined;
    const failure = this.#failures[index]!;
    failure.times = (failure.times ?? 1) - 1;
    if (failure.times <= 0) this.#failures.splice(index, 1);
    return failure;
  }
}

async function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too_large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) return 'too_large';
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

async function parseBody(recorded: RecordedRequest): Promise<void> {
  const type = String(recorded.headers['content-type'] ?? '');
  if (recorded.rawBody.length === 0) return;
  if (type.includes('application/json')) {
    try {
      recorded.body = JSON.parse(recorded.rawBody.toString('utf8'));
    } catch {
      recorded.body = undefined;
    }
  } else if (type.includes('application/x-www-form-urlencoded')) {
    recorded.body = Object.fromEntries(new URLSearchParams(recorded.rawBody.toString('utf8')));
  } else if (type.includes('multipart/form-data')) {
    // The WHATWG Request parser is the same one platforms' clients are tested against.
    const form = await new Request('http://fake/', {
      method: 'POST',
      headers: { 'content-type': type },
      body: new Uint8Array(recorded.rawBody),
    }).formData();
    const fields: Record<string, unknown> = {};
    for (const [name, value] of form) {
      if (typeof value === 'string') fields[name] = value;
      else recorded.files[name] = value;
    }
    recorded.body = fields;
  }
}

function send(res: ServerResponse, response: FakeResponse): void {
  const write = () => {
    if (response.drop) {
      res.socket?.destroy();
      return;
    }
    const headers = { ...response.headers };
    let body: string | Uint8Array | undefined;
    if (response.bytes !== undefined) {
      body = response.bytes;
      headers['content-type'] ??= 'application/octet-stream';
    } else if (response.json !== undefined) {
      body = JSON.stringify(response.json);
      headers['content-type'] ??= 'application/json';
    } else if (response.text !== undefined) {
      body = response.text;
      headers['content-type'] ??= 'text/plain';
    }
    res.writeHead(response.status ?? 200, headers);
    res.end(body);
  };
  if (response.delayMs) setTimeout(write, response.delayMs);
  else write();
}
