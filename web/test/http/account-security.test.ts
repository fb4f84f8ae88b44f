import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../../server/db/client.ts';
import { clientAddressFromChain } from '../../server/security/client-address.ts';
import { decide } from '../cli-auth.helpers.ts';
import { type RunningApp, startApp } from '../helpers/app.ts';
import { Client, signUp } from '../helpers/client.ts';
import { backends } from '../helpers/databases.ts';
import { FakeGitHub, type GitHubProfile } from '../helpers/github-fake.ts';
import { authorize, exchange, rawMcp, refresh, registerClient } from '../helpers/oauth.ts';

const password = 'correct horse battery';
const form = { 'content-type': 'application/x-www-form-urlencoded' };

/** Secrets of tokens seeded straight into the database (the app stores only their SHA-256). */
const seeded = {
  userId: '00000000-0000-4000-8000-00000000e001',
  expiredPersonal: `pw_${randomBytes(32).toString('base64url')}`,
  expiredCli: `pw_${randomBytes(32).toString('base64url')}`,
  idleCli: `pw_${randomBytes(32).toString('base64url')}`,
};
const hash = (secret: string) => createHash('sha256').update(secret).digest('base64url');
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

/** A forced database failure, a seeded user with expired tokens. */
async function prepareDatabase(db: DatabaseHandle['db']) {
  for (const [table, condition] of [
    ['users', "NEW.email LIKE 'force-db-error%'"],
    ['api_tokens', "NEW.name = 'force-db-error'"],
  ] as const) {
    await db.execute(
      sql.raw(`CREATE FUNCTION postwave_test_refuse_${table}() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF ${condition} THEN RAISE EXCEPTION 'refused by a test trigger'; END IF;
          RETURN NEW;
        END $$`),
    );
    await db.execute(
      sql.raw(
        `CREATE TRIGGER postwave_test_refuse BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION postwave_test_refuse_${table}()`,
      ),
    );
  }
  await db.execute(sql`INSERT INTO users (id, email, created_at, updated_at)
    VALUES (${seeded.userId}, 'seeded@example.com', now(), now())`);
  // Every user has a workspace their tokens are bound to (docs/workspaces.md): its id is the user's here.
  await db.execute(
    sql`INSERT INTO workspaces (id, name, created_at) VALUES (${seeded.userId}, 'Seeded', now())`,
  );
  await db.execute(sql`INSERT INTO workspace_members (workspace_id, user_id, role, created_at)
    VALUES (${seeded.userId}, ${seeded.userId}, 'owner', now())`);
  const rows: [string, string, string, string | null, string][] = [
    [seeded.expiredPersonal, 'old personal', 'personal', null, daysAgo(1)],
    [seeded.expiredCli, 'CLI: idle laptop', 'cli', daysAgo(91), daysAgo(1)],
    [
      seeded.idleCli,
      'CLI: busy laptop',
      'cli',
      daysAgo(80),
      new Date(Date.now() + 10 * 86_400_000).toISOString(),
    ],
  ];
  for (const [secret, name, kind, lastUsed, expires] of rows) {
    await db.execute(sql`INSERT INTO api_tokens (id, user_id, workspace_id, name, kind, token_hash, created_at, last_used_at, expires_at)
      VALUES (${crypto.randomUUID()}, ${seeded.userId}, ${seeded.userId}, ${name}, ${kind}, ${hash(secret)}, ${daysAgo(200)},
        ${lastUsed}, ${expires})`);
  }
}

/** Values the app logged (LOG_LEVEL=info, no SMTP) under `field` for this user, newest first. */
function logged(app: RunningApp, userId: string, field: 'resetLink' | 'verifyLink'): string[] {
  const found: string[] = [];
  for (const line of app.output().split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const entry = JSON.parse(line) as Record<string, string>;
      if (entry.userId === userId && entry[field]) found.unshift(entry[field]);
    } catch {}
  }
  return found;
}

async function waitForLogged(
  app: RunningApp,
  userId: string,
  field: 'resetLink' | 'verifyLink',
  count = 1,
): Promise<string> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const found = logged(app, userId, field);
    if (found.length >= count) return found[0]!;
    if (Date.now() > deadline) throw new Error(`no ${field} logged for ${userId}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A client whose requests arrive through one trusted proxy (TRUST_PROXY=1) from `address`. */
function from(base: string, forwardedFor: string): Client {
  const client = new Client(base);
  const fetch = client.fetch.bind(client);
  client.fetch = (path, init = {}) => {
    const headers = new Headers(init.headers);
    headers.set('x-forwarded-for', forwardedFor);
    return fetch(path, { ...init, headers });
  };
  return client;
}

async function signIn(client: Client, email: string, secret: string): Promise<boolean> {
  const csrf = await client.json('/api/auth/csrf');
  const res = await client.fetch('/api/auth/callback/credentials', {
    method: 'POST',
    headers: form,
    body: new URLSearchParams({ email, password: secret, csrfToken: csrf.body.csrfToken, callbackUrl: '/' }),
  });
  return (
    res.status === 302 &&
    !/error=/.test(res.headers.get('location') ?? '') &&
    client.cookies.has('authjs.session-token')
  );
}

let githubIds = 7000;
function gitHubProfile(email: string, verified = true): GitHubProfile {
  const id = ++githubIds;
  return { id, login: `octo${id}`, name: `Octo ${id}`, emails: [{ email, primary: true, verified }] };
}

/**
 * Plays GitHub's side of the sign-in: `start` is the app's redirect to GitHub's authorize page;
 * the user approves as `profile` and the browser comes back to the app's callback.
 */
async function completeAtGitHub(
  browser: Client,
  github: FakeGitHub,
  start: Response,
  profile: GitHubProfile,
): Promise<Response> {
  assert.ok([302, 303].includes(start.status), `expected a redirect to GitHub, got ${start.status}`);
  const authorizeUrl = new URL(start.headers.get('location')!);
  assert.equal(`${authorizeUrl.origin}${authorizeUrl.pathname}`, `${github.url}/login/oauth/authorize`);
  const redirectUri = authorizeUrl.searchParams.get('redirect_uri')!;
  const callback = new URL(redirectUri);
  callback.searchParams.set('code', github.approve(profile, redirectUri));
  const state = authorizeUrl.searchParams.get('state');
  if (state) callback.searchParams.set('state', state);
  return browser.fetch(`${callback.pathname}${callback.search}`);
}

/** "Continue with GitHub" from the sign-in page, through to the app's answer. */
async function signInWithGitHub(
  app: RunningApp,
  browser: Client,
  github: FakeGitHub,
  profile: GitHubProfile,
) {
  const csrf = await browser.json('/api/auth/csrf');
  const start = await browser.fetch('/api/auth/signin/github', {
    method: 'POST',
    headers: form,
    body: new URLSearchParams({ csrfToken: csrf.body.csrfToken, callbackUrl: `${app.url}/compose` }),
  });
  return completeAtGitHub(browser, github, start, profile);
}

async function verifyEmailOf(app: RunningApp, userId: string): Promise<void> {
  const link = new URL(await waitForLogged(app, userId, 'verifyLink'));
  const res = await new Client(app.url).fetch('/api/auth/verify-email', {
    json: { token: link.searchParams.get('token') },
  });
  assert.equal(res.status, 204);
}

describe('client address (TRUST_PROXY)', () => {
  test('X-Forwarded-For is read only as far as the trusted hop count', () => {
    const chain = '6.6.6.6, 203.0.113.9, 10.0.0.2';
    assert.equal(clientAddressFromChain(chain, 0), '10.0.0.2', 'default: the TCP peer');
    assert.equal(clientAddressFromChain(chain, 1), '203.0.113.9');
    assert.equal(clientAddressFromChain(chain, 2), '6.6.6.6');
    assert.equal(clientAddressFromChain(chain, 5), '6.6.6.6');
    assert.equal(clientAddressFromChain('not-an-ip, 10.0.0.2', 3), '10.0.0.2', 'junk ends the walk');
    assert.equal(clientAddressFromChain('::ffff:127.0.0.1', 0), '127.0.0.1');
    assert.equal(clientAddressFromChain(null, 1), 'unknown');
  });
});

for (const backend of backends()) {
  describe(`account security (${backend})`, () => {
    let app: RunningApp;
    const github = new FakeGitHub();
    const secretsDir = mkdtempSync(join(tmpdir(), 'postwave-secrets-'));
    before(async () => {
      await github.start();
      app = await startApp(
        backend,
        {
          LOG_LEVEL: 'info',
          TRUST_PROXY: '1',
          SECRETS_DIR: secretsDir,
          GITHUB_CLIENT_ID: github.clientId,
          GITHUB_CLIENT_SECRET: github.clientSecret,
          GITHUB_BASE_URL: github.url,
        },
        { prepareDatabase, host: 'localhost' },
      );
    });
    after(async () => {
      await app?.stop();
      await github.stop();
      rmSync(secretsDir, { recursive: true, force: true });
    });

    test('a GitHub sign-in never attaches to an existing user by e-mail alone', async () => {
      // The attacker signs up first with the victim's address and never verifies it.
      const victimEmail = `victim-${Date.now()}@example.com`;
      const attacker = new Client(app.url);
      const signup = await attacker.json('/api/auth/signup', { json: { email: victimEmail, password } });
      assert.equal(signup.status, 201, 'sign-up still answers 201 with a session');
      assert.equal(signup.body.user.emailVerifiedAt, null);

      // Later the victim signs in with GitHub, whose verified address is the same.
      const victim = new Client(app.url);
      const res = await signInWithGitHub(app, victim, github, gitHubProfile(victimEmail));
      assert.equal(res.status, 302);
      assert.match(res.headers.get('location') ?? '', /\/signin\?error=email_in_use/);
      assert.equal(victim.cookies.has('authjs.session-token'), false, 'no session for anyone');
      const methods = await attacker.json('/api/auth/sign-in-methods');
      assert.equal(methods.status, 200);
      assert.deepEqual(methods.body.identities, [], 'nothing was linked to the existing user');
      assert.equal(methods.body.password, true);
    });

    test('a GitHub sign-in with a new verified address creates a verified user; unverified addresses are refused', async () => {
      const browser = new Client(app.url);
      const email = `octo-${Date.now()}@example.com`;
      const profile = gitHubProfile(email);
      const res = await signInWithGitHub(app, browser, github, profile);
      assert.equal(res.status, 302);
      assert.doesNotMatch(res.headers.get('location') ?? '', /error/);
      const session = await browser.json('/api/auth/session');
      assert.equal(session.body.user.email, email);
      const methods = await browser.json('/api/auth/sign-in-methods');
      assert.deepEqual(
        methods.body.identities.map((i: { provider: string }) => i.provider),
        ['github'],
      );
      assert.equal(methods.body.password, false);
      // The only way in cannot be unlinked.
      const last = await browser.json('/api/auth/sign-in-methods/github', { method: 'DELETE' });
      assert.equal(last.status, 409);
      // Signing in again with the same identity is the same user.
      const again = new Client(app.url);
      await signInWithGitHub(app, again, github, profile);
      assert.equal((await again.json('/api/auth/session')).body.user.id, session.body.user.id);

      const unverified = new Client(app.url);
      const refused = await signInWithGitHub(
        app,
        unverified,
        github,
        gitHubProfile(`unverified-${Date.now()}@example.com`, false),
      );
      assert.match(refused.headers.get('location') ?? '', /error=email_unverified/);
      assert.equal(unverified.cookies.has('authjs.session-token'), false);

      // GitHub's replies are read under the size cap (8 MiB by default), as every platform's are.
      const flooded = new Client(app.url);
      const oversized = await signInWithGitHub(app, flooded, github, {
        ...gitHubProfile(`flooded-${Date.now()}@example.com`),
        bioBytes: 9 * 1024 * 1024,
      });
      assert.equal(oversized.status, 302);
      assert.match(oversized.headers.get('location') ?? '', /error/);
      assert.equal(flooded.cookies.has('authjs.session-token'), false);
    });

    test('linking GitHub is an explicit action of a signed-in, verified user; unlinking keeps a way in', async () => {
      const { client, user } = await signUp(app.url, 'linker');
      const notYet = await client.fetch('/api/auth/sign-in-methods/github', { method: 'POST' });
      assert.equal(notYet.status, 403, 'an unverified user cannot link');
      const page = await (await client.fetch('/compose')).text();
      assert.match(page, /aria-label="E-mail verification"/, 'the banner shows until verified');
      // This app has no SMTP: the banner says no link was e-mailed, and never that one was sent.
      assert.match(page, /no confirmation link was e-mailed/);
      assert.doesNotMatch(page, /we sent a link/);

      await verifyEmailOf(app, user.id);
      assert.doesNotMatch(await (await client.fetch('/compose')).text(), /aria-label="E-mail verification"/);

      // Cross-origin requests and bearer tokens cannot start a link.
      client.origin = 'https://evil.example';
      assert.equal((await client.fetch('/api/auth/sign-in-methods/github', { method: 'POST' })).status, 403);
      client.origin = app.url;

      const profile = gitHubProfile(`someone-else-${Date.now()}@example.org`);
      const start = await client.fetch('/api/auth/sign-in-methods/github', { method: 'POST' });
      assert.equal(start.status, 303);
      const done = await completeAtGitHub(client, github, start, profile);
      assert.equal(done.status, 302);
      assert.match(done.headers.get('location') ?? '', /\/settings\?linked=github/);
      const methods = await client.json('/api/auth/sign-in-methods');
      assert.deepEqual(
        methods.body.identities.map((i: { provider: string }) => i.provider),
        ['github'],
      );
      const settings = await (await client.fetch('/settings')).text();
      assert.match(settings, /Sign-in methods/);

      // The linked identity now signs in to this user, whatever its e-mail says.
      const elsewhere = new Client(app.url);
      await signInWithGitHub(app, elsewhere, github, profile);
      assert.equal((await elsewhere.json('/api/auth/session')).body.user.id, user.id);

      // The same GitHub account cannot be linked to a second user.
      const other = await signUp(app.url, 'second-linker');
      await verifyEmailOf(app, other.user.id);
      const second = await other.client.fetch('/api/auth/sign-in-methods/github', { method: 'POST' });
      const refused = await completeAtGitHub(other.client, github, second, profile);
      assert.match(refused.headers.get('location') ?? '', /link_error=linked_elsewhere/);

      // A plain GitHub sign-in in a signed-in browser, without the Settings action, links nothing.
      const third = await signUp(app.url, 'no-intent');
      await verifyEmailOf(app, third.user.id);
      const plain = await signInWithGitHub(app, third.client, github, gitHubProfile(third.user.email));
      assert.match(plain.headers.get('location') ?? '', /error=email_in_use/);
      assert.deepEqual((await third.client.json('/api/auth/sign-in-methods')).body.identities, []);

      assert.equal(
        (await client.fetch('/api/auth/sign-in-methods/github', { method: 'DELETE' })).status,
        204,
      );
      assert.deepEqual((await client.json('/api/auth/sign-in-methods')).body.identities, []);
      const gone = new Client(app.url);
      const after = await signInWithGitHub(app, gone, github, profile);
      assert.equal(after.status, 302);
      assert.notEqual(
        (await gone.json('/api/auth/session')).body?.user?.id,
        user.id,
        'an unlinked identity no longer signs in to the user',
      );
    });

    test('e-mail verification links are single use', async () => {
      const { user } = await signUp(app.url, 'verify-once');
      const token = new URL(await waitForLogged(app, user.id, 'verifyLink')).searchParams.get('token')!;
      const anonymous = new Client(app.url);
      const landing = await anonymous.fetch(`/verify-email?token=${encodeURIComponent(token)}`);
      assert.match(await landing.text(), /Confirm my e-mail address/, 'a GET does not use the link up');
      const viaForm = await anonymous.fetch('/api/auth/verify-email', {
        method: 'POST',
        headers: form,
        body: new URLSearchParams({ token }),
      });
      assert.equal(viaForm.status, 303);
      assert.match(viaForm.headers.get('location') ?? '', /status=verified/);
      const again = await anonymous.json('/api/auth/verify-email', { json: { token } });
      assert.equal(again.status, 422);
      assert.equal(again.body.errors[0].code, 'invalid_verification_token');
    });

    test('password reset ends every session, API and CLI token and MCP grant of the user', async () => {
      const { client: session, user } = await signUp(app.url, 'reset-all');
      const personal = await session.json('/api/v1/tokens', { json: { name: 'script' } });
      const api = session.withToken(personal.body.token);
      assert.equal((await api.json('/api/v1/posts')).status, 200);

      const verifier = randomBytes(32).toString('base64url');
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      const query = new URLSearchParams({
        redirect_uri: 'http://127.0.0.1:45678/callback',
        state: 'st4te',
        code_challenge: challenge,
        code_challenge_method: 'S256',
        device_name: 'laptop',
      });
      const approved = await decide(session, `/api/cli/authorize?${query}`, 'approve');
      const cli = await new Client(app.url).json('/api/cli/authorize', {
        json: { code: new URL(approved.location).searchParams.get('code'), code_verifier: verifier },
      });
      assert.equal(cli.status, 200);
      const cliClient = session.withToken(cli.body.token);
      assert.equal((await cliClient.json('/api/v1/posts')).status, 200);

      const clientId = await registerClient(app.url);
      const grant = await authorize(app.url, session, clientId);
      const mcp = await (await exchange(app.url, clientId, grant)).json();
      assert.equal((await rawMcp(app.url, mcp.access_token)).status, 200);

      const requester = from(app.url, '198.51.100.200');
      assert.equal(
        (await requester.json('/api/auth/password-reset', { json: { email: user.email } })).status,
        202,
      );
      const link = new URL(await waitForLogged(app, user.id, 'resetLink'));
      const resetPage = await (await requester.fetch(`${link.pathname}${link.search}`)).text();
      assert.match(resetPage, /every API and CLI token/);
      const newPassword = 'a completely new password';
      const reset = await requester.fetch('/api/auth/password-reset/confirm', {
        json: { token: link.searchParams.get('token'), password: newPassword },
      });
      assert.equal(reset.status, 204);

      assert.equal((await session.json('/api/v1/accounts')).status, 401, 'the session ended');
      assert.equal((await api.json('/api/v1/posts')).status, 401, 'the personal token ended');
      assert.equal((await cliClient.json('/api/v1/posts')).status, 401, 'the CLI token ended');
      assert.equal((await rawMcp(app.url, mcp.access_token)).status, 401, 'the MCP access token ended');
      assert.equal(
        (await refresh(app.url, clientId, mcp.refresh_token)).status,
        400,
        'the MCP refresh token ended',
      );

      const fresh = new Client(app.url);
      assert.ok(await signIn(fresh, user.email, newPassword));
      assert.deepEqual((await fresh.json('/api/v1/tokens')).body.tokens, []);
      const me = await fresh.json('/api/auth/sign-in-methods');
      assert.equal(me.status, 200);
    });

    test('personal tokens live the whole days chosen, at most a year; expired tokens are 401 with a challenge that says so', async () => {
      const { client } = await signUp(app.url, 'expiry');
      const day = 86_400_000;
      for (const [days, expected] of [
        [undefined, 90],
        [30, 30],
        [90, 90],
        [365, 365],
        [7, 7],
        [180, 180],
      ] as const) {
        const created = await client.json('/api/v1/tokens', {
          json: { name: `t${days}`, ...(days ? { expiresInDays: days } : {}) },
        });
        assert.equal(created.status, 201);
        const lifetime = Date.parse(created.body.expiresAt) - Date.now();
        assert.ok(Math.abs(lifetime - expected * day) < 60_000, `${days} → ${expected} days`);
      }
      for (const bad of [0, -1, 366, 3650]) {
        const res = await client.json('/api/v1/tokens', { json: { name: 'bad', expiresInDays: bad } });
        assert.equal(res.status, 422, String(bad));
        assert.equal(res.body.errors[0].path, 'expiresInDays');
      }
      // Not a whole number is a wrong type, as for every integer field (its OpenAPI type is integer).
      for (const wrong of ['90', 1.5]) {
        const text = await client.json('/api/v1/tokens', { json: { name: 'bad', expiresInDays: wrong } });
        assert.equal(text.status, 400, String(wrong));
      }
      const openapi = JSON.stringify((await client.json('/openapi.json')).body.paths['/api/v1/tokens']);
      assert.match(openapi, /expiresInDays/);
      assert.match(openapi, /The token expired/);
      const listed = await client.json('/api/v1/tokens');
      assert.ok(listed.body.tokens.every((t: { expiresAt: string | null }) => t.expiresAt !== null));

      for (const secret of [seeded.expiredPersonal, seeded.expiredCli]) {
        const res = await client.withToken(secret).json('/api/v1/posts');
        assert.equal(res.status, 401);
        assert.equal(res.body.code, 'unauthorized', 'the contract’s code for a refused caller');
        assert.match(
          res.headers.get('www-authenticate') ?? '',
          /Bearer .*error="invalid_token", error_description="The token expired"/,
        );
      }
      const unknown = await client
        .withToken(`pw_${randomBytes(32).toString('base64url')}`)
        .json('/api/v1/posts');
      assert.equal(unknown.body.code, 'unauthorized');
      assert.doesNotMatch(
        unknown.headers.get('www-authenticate') ?? '',
        /expired/,
        'an unknown token is not "expired"',
      );
      // A CLI token in use lives on: each use moves its expiry to 90 days later.
      const busy = client.withToken(seeded.idleCli);
      assert.equal((await busy.json('/api/v1/posts')).status, 200);
      const mine = await busy.json('/api/v1/tokens');
      const row = mine.body.tokens.find((t: { name: string }) => t.name === 'CLI: busy laptop');
      assert.ok(Math.abs(Date.parse(row.expiresAt) - (Date.now() + 90 * day)) < 60_000);
    });

    test('database errors are logged without their bound parameters', async () => {
      const email = `force-db-error-${Date.now()}@example.com`;
      const res = await new Client(app.url).json('/api/auth/signup', { json: { email, password } });
      assert.equal(res.status, 500);
      assert.equal(res.body.code, 'internal');
      const { client } = await signUp(app.url, 'db-error');
      const token = await client.json('/api/v1/tokens', { json: { name: 'force-db-error' } });
      assert.equal(token.status, 500);
      const deadline = Date.now() + 5000;
      while ((app.output().match(/refused by a test trigger/g) ?? []).length < 2 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      const output = app.output();
      assert.match(output, /insert into \\?"users\\?"/, 'the failed query is logged');
      assert.match(output, /insert into \\?"api_tokens\\?"/);
      assert.ok(!output.includes(email), 'no e-mail address');
      assert.ok(!output.includes('scrypt$'), 'no password hash');
      assert.doesNotMatch(output, /params:/);
    });

    test('failed sign-ins lock the (e-mail, address) pair only, with X-Forwarded-For trusted for one hop', async () => {
      const { user } = await signUp(app.url, 'lockout');
      const attacker = from(app.url, '203.0.113.66');
      for (let i = 0; i < 10; i++)
        assert.equal(await signIn(attacker, user.email, `wrong ${i} password`), false);
      assert.equal(
        await signIn(from(app.url, '203.0.113.66'), user.email, password),
        false,
        'that pair waits',
      );
      assert.ok(
        await signIn(from(app.url, '192.0.2.10'), user.email, password),
        'the owner elsewhere signs in',
      );

      // Entries left of the trusted hop are the client's to invent: they do not make a new address.
      for (let i = 0; i < 50; i++) {
        const spoofed = from(app.url, `10.9.${i}.1, 203.0.113.77`);
        await signIn(spoofed, `spray-${i}@example.com`, 'wrong password!');
      }
      const victim = await signUp(app.url, 'sprayed');
      assert.equal(
        await signIn(from(app.url, '1.2.3.4, 203.0.113.77'), victim.user.email, password),
        false,
        'the per-address limit holds whatever X-Forwarded-For says further left',
      );
      assert.ok(await signIn(from(app.url, '203.0.113.78'), victim.user.email, password));
    });

    test('password reset requests are limited per (e-mail, address): a stranger cannot use up the owner’s', async () => {
      const { user } = await signUp(app.url, 'reset-limits');
      const stranger = from(app.url, '203.0.113.90');
      for (let i = 0; i < 4; i++) {
        assert.equal(
          (await stranger.json('/api/auth/password-reset', { json: { email: user.email } })).status,
          202,
        );
      }
      await waitForLogged(app, user.id, 'resetLink', 3);
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(logged(app, user.id, 'resetLink').length, 3);
      const owner = from(app.url, '192.0.2.55');
      assert.equal(
        (await owner.json('/api/auth/password-reset', { json: { email: user.email } })).status,
        202,
      );
      await waitForLogged(app, user.id, 'resetLink', 4);
    });

    test('generated secrets live in SECRETS_DIR, with a warning in production', () => {
      assert.ok(existsSync(join(secretsDir, 'auth-secret')));
      assert.ok(existsSync(join(secretsDir, 'credentials-encryption-key')));
      assert.equal(existsSync(join(app.dataDir, 'secrets')), false, 'nothing beside the data');
      assert.match(
        app.output(),
        /start-up warning.*AUTH_SECRET and CREDENTIALS_ENCRYPTION_KEY (were generated|are not set).* In production set them, or keep SECRETS_DIR out of DATA_DIR backups/,
      );
    });
  });
}
