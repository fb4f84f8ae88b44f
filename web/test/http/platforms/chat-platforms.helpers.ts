import assert from 'node:assert/strict';
import { dispatchSecret, type RunningApp } from '#test/helpers/app.ts';
import type { Client } from '#test/helpers/client.ts';

// biome-ignore lint/suspicious/noExplicitAny: test assertions read arbitrary JSON
type Json = any;

/** `host:port` of a URL, as ALLOW_PRIVATE_HOSTS lists it. */
export const hostOf = (url: string): string => new URL(url).host;

/** POST /api/v1/accounts: connect by credentials. */
export function connectAccount(
  api: Client,
  platform: string,
  credentials: Record<string, unknown>,
  platformAccountId?: string,
) {
  return api.json('/api/v1/accounts', {
    json: { platform, credentials, ...(platformAccountId === undefined ? {} : { platformAccountId }) },
  });
}

/** Publishes now; returns the finished post. */
export async function publishNow(api: Client, body: Record<string, unknown>): Promise<Json> {
  const posted = await api.json('/api/v1/posts', { json: { postingMode: 'now', ...body } });
  assert.equal(posted.status, 201, JSON.stringify(posted.body));
  return posted.body;
}

/** Schedules a post a moment ahead, waits until it is due and runs the dispatch endpoint. */
export async function scheduleAndDispatch(
  app: RunningApp,
  api: Client,
  body: Record<string, unknown>,
): Promise<Json> {
  const scheduledAt = new Date(Date.now() + 1200).toISOString();
  const created = await api.json('/api/v1/posts', {
    json: { postingMode: 'schedule', scheduledAt, ...body },
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  assert.equal(created.body.status, 'scheduled');
  await new Promise((resolve) => setTimeout(resolve, 1300));
  const dispatched = await fetch(`${app.url}/api/internal/scheduled-posts/dispatch`, {
    method: 'POST',
    headers: { authorization: `Bearer ${dispatchSecret}` },
  });
  assert.equal(dispatched.status, 200);
  return (await api.json(`/api/v1/posts/${created.body.id}`)).body;
}

/** What a browser does through an OAuth connect: us → the platform's consent (approved) → our callback. */
export async function connectByOAuth(client: Client, platform: string, query = ''): Promise<URL> {
  const start = await client.fetch(`/api/v1/accounts/connect/${platform}${query}`);
  assert.equal(start.status, 302, await start.text());
  const consent = await fetch(new URL(start.headers.get('location')!), { redirect: 'manual' });
  assert.equal(consent.status, 302, `${platform} consent: ${await consent.text()}`);
  const callback = new URL(consent.headers.get('location')!);
  assert.equal(callback.pathname, `/api/v1/accounts/connect/${platform}/callback`);
  const done = await client.fetch(callback.pathname + callback.search);
  assert.equal(done.status, 302, await done.text());
  return new URL(done.headers.get('location')!);
}

/** The picker page's offered platform account ids, and its HTML. */
export async function pickerChoices(client: Client, landing: URL): Promise<{ html: string; ids: string[] }> {
  assert.equal(landing.pathname, '/accounts/pick', landing.toString());
  const page = await client.fetch(landing.pathname + landing.search);
  assert.equal(page.status, 200);
  const html = await page.text();
  const ids = [...html.matchAll(/<input[^>]*name="accountIds"[^>]*value="([^"]+)"/g)].map((m) => m[1]!);
  return { html, ids };
}

export async function pick(client: Client, platform: string, landing: URL, ids: string[]): Promise<URL> {
  const form = new URLSearchParams({ pending: landing.searchParams.get('pending')! });
  for (const id of ids) form.append('accountIds', id);
  const response = await client.fetch(`/api/v1/accounts/connect/${platform}/pick`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
  });
  assert.equal(response.status, 303, await response.text());
  return new URL(response.headers.get('location')!);
}

export async function accountsOf(api: Client, platform: string): Promise<Json[]> {
  return (await api.json('/api/v1/accounts')).body.accounts.filter((a: Json) => a.platform === platform);
}
