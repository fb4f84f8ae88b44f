import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type RunningApp, startApp } from '../helpers/app.ts';
import { Client, signUp } from '../helpers/client.ts';
import { backends } from '../helpers/databases.ts';

const password = 'correct horse battery';

/** The reset link the app logged for this user (no SMTP configured), the newest first. */
function loggedLinks(app: RunningApp, userId: string): string[] {
  const links: string[] = [];
  for (const line of app.output().split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const entry = JSON.parse(line) as { userId?: string; resetLink?: string };
      if (entry.userId === userId && entry.resetLink) links.unshift(entry.resetLink);
    } catch {}
  }
  return links;
}

async function waitForLink(app: RunningApp, userId: string, count: number): Promise<string> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const links = loggedLinks(app, userId);
    if (links.length >= count) return links[0]!;
    if (Date.now() > deadline) throw new Error(`no reset link logged:\n${app.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

let addressCounter = 0;
/** A client whose requests seem to come from their own address, so per-address limits stay per test. */
function fromOwnAddress(base: string): Client {
  const client = new Client(base);
  const address = `198.51.100.${++addressCounter}`;
  const fetch = client.fetch.bind(client);
  client.fetch = (path, init = {}) => {
    const headers = new Headers(init.headers);
    headers.set('x-forwarded-for', address);
    return fetch(path, { ...init, headers });
  };
  return client;
}

async function signIn(base: string, email: string, secret: string): Promise<Client> {
  const browser = new Client(base);
  const csrf = await browser.json('/api/auth/csrf');
  await browser.fetch('/api/auth/callback/credentials', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      email,
      password: secret,
      csrfToken: csrf.body.csrfToken,
      callbackUrl: `${base}/`,
    }),
  });
  return browser;
}

for (const backend of backends()) {
  describe(`password reset (${backend})`, () => {
    let app: RunningApp;
    let shortLived: RunningApp;
    before(async () => {
      [app, shortLived] = await Promise.all([
        // The tests play clients behind one proxy: X-Forwarded-For names each test's own address.
        startApp(backend, { LOG_LEVEL: 'info', TRUST_PROXY: '1' }),
        startApp(backend, { LOG_LEVEL: 'info', TRUST_PROXY: '1', PASSWORD_RESET_TTL_SECONDS: '1' }),
      ]);
    });
    after(async () => {
      await Promise.all([app?.stop(), shortLived?.stop()]);
    });

    test('request → logged link → new password → sign in; the link is single use; old sessions end', async () => {
      const { client: oldSession, user } = await signUp(app.url, 'reset');
      const anonymous = fromOwnAddress(app.url);

      const unknown = await anonymous.json('/api/auth/password-reset', {
        json: { email: `nobody-${Date.now()}@example.com` },
      });
      const known = await anonymous.json('/api/auth/password-reset', {
        json: { email: user.email.toUpperCase() },
      });
      assert.equal(known.status, 202);
      assert.deepEqual(known.body, unknown.body, 'the answer does not reveal whether the email exists');
      assert.equal(unknown.status, 202);

      const link = new URL(await waitForLink(app, user.id, 1));
      assert.match(
        await (await anonymous.fetch(`${link.pathname}${link.search}`)).text(),
        /every API and CLI token/,
        'the page says what a reset ends',
      );
      assert.equal(link.origin, app.url);
      assert.equal(link.pathname, '/reset-password');
      const token = link.searchParams.get('token')!;
      assert.ok(!app.output().includes(password), 'the password is never logged');

      const page = await anonymous.fetch(`${link.pathname}${link.search}`);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /Choose a new password/);

      const weak = await anonymous.json('/api/auth/password-reset/confirm', {
        json: { token, password: 'short' },
      });
      assert.equal(weak.status, 422);
      assert.equal(weak.body.errors[0].path, 'password');

      const newPassword = 'a brand new long password';
      const reset = await anonymous.fetch('/api/auth/password-reset/confirm', {
        json: { token, password: newPassword },
      });
      assert.equal(reset.status, 204);

      const reused = await anonymous.json('/api/auth/password-reset/confirm', {
        json: { token, password: 'yet another long password' },
      });
      assert.equal(reused.status, 422);
      assert.equal(reused.body.errors[0].code, 'invalid_reset_token');
      const usedPage = await anonymous.fetch(`${link.pathname}${link.search}`);
      assert.match(await usedPage.text(), /This link no longer works/);

      assert.equal(
        (await oldSession.json('/api/v1/accounts')).status,
        401,
        'sessions from before the reset end',
      );

      const withOld = await signIn(app.url, user.email, password);
      assert.equal(withOld.cookies.has('authjs.session-token'), false);
      const withNew = await signIn(app.url, user.email, newPassword);
      assert.ok(withNew.cookies.has('authjs.session-token'));
      assert.equal((await withNew.json('/api/v1/accounts')).status, 200);
    });

    test('malformed and unknown tokens are refused without a 500', async () => {
      const client = fromOwnAddress(app.url);
      for (const token of ['', 'pwr_nope', 'x'.repeat(150)]) {
        const res = await client.json('/api/auth/password-reset/confirm', {
          json: { token, password: 'a long enough password' },
        });
        assert.equal(res.status, 422, token);
      }
      assert.equal(
        (await client.json('/api/auth/password-reset/confirm', { json: { token: 5 } })).status,
        400,
      );
      assert.equal((await client.json('/api/auth/password-reset', { json: {} })).status, 400);
      const page = await client.fetch('/reset-password');
      assert.equal(page.status, 200);
      assert.match(await page.text(), /This link no longer works/);
    });

    test('an expired link is refused', async () => {
      const { user } = await signUp(shortLived.url, 'expiry');
      const client = fromOwnAddress(shortLived.url);
      await client.json('/api/auth/password-reset', { json: { email: user.email } });
      const token = new URL(await waitForLink(shortLived, user.id, 1)).searchParams.get('token')!;
      await new Promise((r) => setTimeout(r, 1200));
      const res = await client.json('/api/auth/password-reset/confirm', {
        json: { token, password: 'a long enough password' },
      });
      assert.equal(res.status, 422);
      assert.equal(res.body.errors[0].code, 'invalid_reset_token');
    });

    test('requests are limited per account (silently) and per address (429)', async () => {
      const { user } = await signUp(app.url, 'limits');
      const client = fromOwnAddress(app.url);
      for (let i = 0; i < 5; i++) {
        const res = await client.json('/api/auth/password-reset', { json: { email: user.email } });
        assert.equal(res.status, 202);
      }
      await waitForLink(app, user.id, 3);
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(loggedLinks(app, user.id).length, 3, 'at most three links per account per window');

      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        statuses.push(
          (await client.json('/api/auth/password-reset', { json: { email: `x${i}@example.com` } })).status,
        );
      }
      assert.deepEqual(statuses, [202, 202, 202, 202, 202, 429]);
      const other = fromOwnAddress(app.url);
      assert.equal(
        (await other.json('/api/auth/password-reset', { json: { email: 'y@example.com' } })).status,
        202,
      );
    });
  });
}
