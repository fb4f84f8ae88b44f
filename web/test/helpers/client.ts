/** A tiny API client that behaves like a browser (cookies, Origin) or a bearer-token CLI. */
export class Client {
  readonly base: string;
  cookies = new Map<string, string>();
  token: string | undefined;
  /** Browsers send Origin on unsafe requests; tests flip this to check same-origin enforcement. */
  origin: string | undefined;

  constructor(base: string) {
    this.base = base;
    this.origin = base;
  }

  withToken(token: string): Client {
    const c = new Client(this.base);
    c.token = token;
    c.origin = undefined;
    return c;
  }

  async fetch(path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    if (this.token) headers.set('authorization', `Bearer ${this.token}`);
    const method = init.method ?? (init.json !== undefined ? 'POST' : 'GET');
    if (this.origin && !['GET', 'HEAD'].includes(method) && !headers.has('origin'))
      headers.set('origin', this.origin);
    let body = init.body;
    if (init.json !== undefined) {
      headers.set('content-type', 'application/json');
      body = JSON.stringify(init.json);
    }
    const response = await fetch(this.base + path, { ...init, method, headers, body, redirect: 'manual' });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const index = pair!.indexOf('=');
      const name = pair!.slice(0, index);
      const value = pair!.slice(index + 1);
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(cookie) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  // biome-ignore lint/suspicious/noExplicitAny: test assertions read arbitrary JSON
  async json<T = any>(
    path: string,
    init: RequestInit & { json?: unknown } = {},
  ): Promise<{ status: number; body: T; headers: Headers }> {
    const response = await this.fetch(path, init);
    const text = await response.text();
    return {
      status: response.status,
      body: (text ? JSON.parse(text) : undefined) as T,
      headers: response.headers,
    };
  }
}

let counter = 0;

/** Signs a new user up through the API; the client then carries the session cookie. */
export async function signUp(
  base: string,
  name = 'user',
): Promise<{ client: Client; user: { id: string; email: string } }> {
  const client = new Client(base);
  const email = `${name}-${Date.now()}-${counter++}@example.com`;
  const { status, body } = await client.json('/api/auth/signup', {
    json: { email, password: 'correct horse battery', name },
  });
  if (status !== 201) throw new Error(`sign-up failed: ${status} ${JSON.stringify(body)}`);
  return { client, user: body.user };
}

/** A signed-up user plus a personal API token client. */
export async function userWithToken(base: string, name = 'user') {
  const { client, user } = await signUp(base, name);
  const { body } = await client.json('/api/v1/tokens', { json: { name: 'tests' } });
  return { session: client, api: client.withToken(body.token), user };
}
