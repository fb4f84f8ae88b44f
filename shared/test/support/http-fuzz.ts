import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import fc from 'fast-check';

/**
 * A seeded, bounded HTTP fuzzer for both servers (SECURITY.md: no input yields a 5xx).
 * Every case is one real request over a socket: a route of the server (its path parameters
 * replaced by hostile text), a query string with malformed percent-encoding, headers (wrong
 * types, odd keys, oversize values, with or without valid credentials) and a body that is either
 * generated JSON, a valid body with one mutation (NUL, deep nesting, wrong types, huge strings),
 * or raw bytes. Each answer must be below 500 and carry no stack trace.
 */

export interface FuzzRoute {
  method: string;
  /** With `{param}` placeholders, e.g. `/api/v1/posts/{id}`. */
  path: string;
  /** A valid body to mutate, when the route takes one. */
  sample?: unknown;
  /** `json` (default), `form` (application/x-www-form-urlencoded) or `multipart`. */
  bodyKind?: 'json' | 'form' | 'multipart';
}

export interface FuzzOptions {
  base: string;
  routes: FuzzRoute[];
  /** Headers that authenticate (sent in about half the cases). */
  credentials: Record<string, string>;
  numRuns: number;
  seed: number;
  /** Milliseconds per request before it counts as a hang (also a failure). */
  timeoutMs?: number;
}

export interface FuzzCase {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer | undefined;
}

export interface FuzzAnswer {
  status: number;
  body: string;
}

export interface FuzzTally {
  cases: number;
  byStatus: Record<string, number>;
  failures: { request: string; status: number; body: string }[];
}

/** The number of cases: `FUZZ_RUNS` when set (`npm run fuzz` sets 10,000), else `fallback`. */
export function fuzzRuns(fallback: number): number {
  const runs = Number(process.env.FUZZ_RUNS);
  return Number.isSafeInteger(runs) && runs > 0 ? runs : fallback;
}

export function fuzzSeed(): number {
  const seed = Number(process.env.FUZZ_SEED);
  return Number.isSafeInteger(seed) ? seed : 20_261_123;
}

const nasty = [
  '%ZZ',
  '%',
  '%0',
  '%00',
  '%E0%A4',
  '%C0%AF',
  '%FF%FE',
  '%2e%2e',
  '..',
  '%2F',
  '%5C',
  '\u0000',
  '\uD800',
  '💥',
  "'; drop table posts; --",
  '<script>alert(1)</script>',
  '$' + '{jndi:ldap://x}',
  '0',
  '-1',
  '1e309',
  'NaN',
  'null',
  'undefined',
  '__proto__',
  'constructor',
  '00000000-0000-0000-0000-000000000000',
  'a'.repeat(5000),
];

/** Text with hostile pieces mixed in; percent-escapes are kept raw (malformed ones included). */
const hostileText = fc.oneof(
  fc.constantFrom(...nasty),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.array(fc.constantFrom(...nasty), { minLength: 1, maxLength: 3 }).map((parts) => parts.join('')),
);

/** A path or query piece: unsafe bytes are percent-encoded, raw `%` escapes stay malformed on purpose. */
function pathPiece(text: string): string {
  return text.replace(/[^A-Za-z0-9\-._~%!$&'()*+,;=:@]/gu, (c) => {
    try {
      return encodeURIComponent(c);
    } catch {
      return '%ED%A0%80'; // a lone surrogate, as UTF-8 would encode it
    }
  });
}

function deep(depth: number): unknown {
  let value: unknown = 'x';
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

type Mutation = (body: Record<string, unknown>) => unknown;

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc
    .tuple(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 3 }))
    .map(([key, value]) => (body: Record<string, unknown>) => {
      const keys = Object.keys(body);
      const target = keys.length ? keys[key.length % keys.length]! : key;
      return { ...body, [target]: value };
    }),
  fc.constantFrom<Mutation>(
    (body) => withEveryString(body, (s) => `${s}\u0000`),
    (body) => ({ ...body, nested: deep(40) }),
    () => new RawJson(`${'['.repeat(50_000)}${']'.repeat(50_000)}`),
    (body) =>
      new RawJson(
        `{"message":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)},"accountIds":${JSON.stringify(body.accountIds ?? [])}}`,
      ),
    (body) => withEveryString(body, () => 'x'.repeat(100_000)),
    (body) => withEveryString(body, () => '%ZZ'),
    (body) => withEveryString(body, () => '\uD800'),
    (body) => ({ ...body, __proto__: { admin: true } }),
    (body) => Object.fromEntries(Object.keys(body).map((k) => [k, null])),
    (body) => Object.fromEntries(Object.keys(body).map((k) => [k, [body[k], body[k]]])),
    (body) => Object.fromEntries(Object.keys(body).map((k) => [k, 1e308])),
    (body) => [body],
    () => ({}),
  ),
);

function withEveryString(value: unknown, change: (s: string) => string): unknown {
  if (typeof value === 'string') return change(value);
  if (Array.isArray(value)) return value.map((v) => withEveryString(v, change));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withEveryString(v, change)]));
  return value;
}

/** JSON text too deep for JSON.stringify to produce. */
class RawJson {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

function encodeBody(kind: FuzzRoute['bodyKind'], value: unknown): { type: string; bytes: Buffer } {
  if (value instanceof RawJson) return { type: 'application/json', bytes: Buffer.from(value.text) };
  if (kind === 'form') {
    const form = new URLSearchParams();
    if (value && typeof value === 'object')
      for (const [k, v] of Object.entries(value))
        form.append(k, typeof v === 'string' ? v : JSON.stringify(v));
    return { type: 'application/x-www-form-urlencoded', bytes: Buffer.from(form.toString()) };
  }
  return { type: 'application/json', bytes: Buffer.from(JSON.stringify(value) ?? 'null') };
}

function caseArbitrary(options: FuzzOptions): fc.Arbitrary<FuzzCase> {
  const route = fc.constantFrom(...options.routes);
  const query = fc.array(fc.tuple(hostileText, hostileText), { maxLength: 4 });
  const contentType = fc.constantFrom(
    'application/json',
    'application/json; charset=utf-16',
    'application/problem+json',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data',
    'multipart/form-data; boundary=x',
    'image/png',
    '*/*',
    '',
    'application/json; charset=nope',
  );
  const extraHeaders = fc.dictionary(
    fc.constantFrom(
      'idempotency-key',
      'range',
      'if-none-match',
      'if-modified-since',
      'accept',
      'accept-encoding',
      'x-forwarded-for',
      'origin',
      'cookie',
      'content-length-ish',
      'x-oversize',
      'next-action',
      'rsc',
      'next-router-state-tree',
    ),
    fc.oneof(hostileText, fc.uuid()),
    { maxKeys: 3 },
  );
  const body = fc.oneof(
    {
      weight: 3,
      arbitrary: mutation.map((m) => ({ mutate: m as Mutation | undefined, raw: undefined as unknown })),
    },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((raw) => ({ mutate: undefined, raw })) },
    {
      weight: 1,
      arbitrary: fc
        .oneof(
          fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)),
          hostileText.map((s) => Buffer.from(s)),
        )
        .map((raw) => ({ mutate: undefined, raw: raw as unknown })),
    },
    { weight: 1, arbitrary: fc.constant({ mutate: undefined, raw: undefined as unknown }) },
  );
  return fc
    .record({
      route,
      method: fc.option(fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'), {
        freq: 8,
      }),
      params: fc.array(hostileText, { minLength: 3, maxLength: 3 }),
      query,
      authenticated: fc.boolean(),
      wrongCredentials: fc.boolean(),
      contentType: fc.option(contentType, { freq: 3 }),
      extraHeaders,
      body,
    })
    .map((c) => {
      let i = 0;
      const path = c.route.path.replace(/\{[^}]+\}/g, () => pathPiece(c.params[i++ % c.params.length]!));
      const qs = c.query.map(([k, v]) => `${pathPiece(k)}=${pathPiece(v)}`).join('&');
      const headers: Record<string, string> = {};
      if (c.authenticated)
        Object.assign(headers, c.wrongCredentials ? scramble(options.credentials) : options.credentials);
      for (const [name, value] of Object.entries(c.extraHeaders)) {
        const clean = value.replace(/[^\t\x20-\x7e\x80-\xff]/g, '');
        headers[name] = name === 'x-oversize' ? clean.repeat(2000).slice(0, 20_000) : clean;
      }
      let bytes: Buffer | undefined;
      let type: string | undefined;
      if (c.body.mutate) {
        const sample = (c.route.sample ?? {}) as Record<string, unknown>;
        ({ bytes, type } = encodeBody(c.route.bodyKind, c.body.mutate(sample)));
      } else if (Buffer.isBuffer(c.body.raw)) bytes = c.body.raw;
      else if (c.body.raw !== undefined) ({ bytes, type } = encodeBody(c.route.bodyKind, c.body.raw));
      if (c.contentType !== null) type = c.contentType;
      if (type) headers['content-type'] = type;
      return { method: c.method ?? c.route.method, path: qs ? `${path}?${qs}` : path, headers, body: bytes };
    });
}

function scramble(credentials: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(credentials).map(([k, v]) => [k, `${v.slice(0, -1)}x`]));
}

/** Sends one case over a fresh socket; transport errors (the server cut us off) count as status 0. */
export function send(base: string, c: FuzzCase, timeoutMs = 30_000): Promise<FuzzAnswer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: c.method,
        path: c.path,
        headers: { ...c.headers, ...(c.body ? { 'content-length': String(c.body.length) } : {}) },
        agent: false,
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', () => resolve({ status: res.statusCode ?? 0, body: '' }));
      },
    );
    req.on('timeout', () => {
      req.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    });
    req.on('error', (error) => {
      // Node refuses to send some generated requests (invalid characters): not a server answer.
      if ((error as { code?: string }).code?.startsWith('ERR_')) resolve({ status: -1, body: '' });
      else resolve({ status: 0, body: String(error) });
    });
    req.end(c.body);
  });
}

const stackTrace = /\n\s+at .+[(:]\d+|node:internal|\/node_modules\/|\.tsx?:\d+:\d+|\bat async\b/;

/** Runs the cases one after another; returns the tally (failures: 5xx, stack traces, hangs). */
export async function fuzzHttp(options: FuzzOptions): Promise<FuzzTally> {
  const tally: FuzzTally = { cases: 0, byStatus: {}, failures: [] };
  await fc.assert(
    fc.asyncProperty(caseArbitrary(options), async (c) => {
      let answer: FuzzAnswer;
      try {
        answer = await send(options.base, c, options.timeoutMs);
      } catch (error) {
        answer = { status: 999, body: String(error) };
      }
      tally.cases++;
      const bucket = answer.status <= 0 ? 'refused' : `${Math.floor(answer.status / 100)}xx`;
      tally.byStatus[bucket] = (tally.byStatus[bucket] ?? 0) + 1;
      if (answer.status >= 500 || stackTrace.test(answer.body)) {
        tally.failures.push({
          request: `${c.method} ${c.path.slice(0, 200)} ${JSON.stringify(
            Object.fromEntries(Object.entries(c.headers).map(([k, v]) => [k, v.slice(0, 40)])),
          )} body=${c.body?.subarray(0, 200).toString() ?? ''}`,
          status: answer.status,
          body: answer.body.slice(0, 500),
        });
      }
      return true;
    }),
    { numRuns: options.numRuns, seed: options.seed, endOnFailure: false },
  );
  return tally;
}

export function formatTally(name: string, tally: FuzzTally): string {
  const statuses = Object.entries(tally.byStatus)
    .sort()
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ');
  return `fuzz ${name}: ${tally.cases} cases (${statuses}); failures: ${tally.failures.length}`;
}

/**
 * Writes `head` (request line and headers, without the final blank line) as is on a new
 * connection: for requests `http.request` will not send, such as HTTP/1.1 without Host.
 */
export function sendRaw(base: string, head: string): Promise<FuzzAnswer & { contentType: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => socket.end(`${head}\r\n\r\n`));
    const chunks: Buffer[] = [];
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [top = '', body = ''] = text.split('\r\n\r\n');
      resolve({
        status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(top)?.[1] ?? 0),
        contentType: /\r\ncontent-type: *([^\r]*)/i.exec(top)?.[1] ?? '',
        body,
      });
    });
  });
}

/**
 * The request-target forms both servers settle before routing (`answerBeforeRouting`): `OPTIONS *`
 * is 204; `*` with another method and a target neither a path nor an http(s) URL are 400 problems.
 * Answers what went wrong, or undefined.
 */
export async function oddTargetFailure(base: string): Promise<string | undefined> {
  const host = new URL(base).host;
  const options = await sendRaw(base, `OPTIONS * HTTP/1.1\r\nHost: ${host}\r\nConnection: close`);
  if (options.status !== 204) return `OPTIONS *: ${options.status}`;
  for (const head of [`GET * HTTP/1.1`, `GET ftp://${host}/health HTTP/1.1`]) {
    const answer = await sendRaw(base, `${head}\r\nHost: ${host}\r\nConnection: close`);
    const problem = answer.contentType.startsWith('application/problem+json') && JSON.parse(answer.body);
    if (answer.status !== 400 || problem?.code !== 'invalid_request')
      return `${head}: ${answer.status} ${answer.contentType} ${answer.body}`;
  }
  return undefined;
}
