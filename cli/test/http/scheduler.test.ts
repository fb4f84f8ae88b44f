import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { samplePng } from '@postwave/shared/testing';
import { decide } from '../../../web/test/cli-auth.helpers.ts';
import { Client, signUp, userWithToken } from '../../../web/test/helpers/client.ts';
import { backends } from '../../../web/test/helpers/databases.ts';
import { connectTelegram, startTelegramApp, type TelegramApp } from '../../../web/test/helpers/fixtures.ts';

const cliMain = resolve(import.meta.dirname, '..', '..', 'src', 'main.ts');

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function authorizeQuery(
  challenge: string,
  redirect = 'http://127.0.0.1:45678/callback',
  extra: Record<string, string> = {},
) {
  return new URLSearchParams({
    redirect_uri: redirect,
    state: 'st4te',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    device_name: 'Test laptop',
    ...extra,
  }).toString();
}

interface CliRun {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  done: Promise<number>;
}

function startCli(args: string[], env: Record<string, string>): CliRun {
  let stdout = '';
  let stderr = '';
  const child = spawn(process.execPath, [cliMain, ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => {
    stdout += d;
  });
  child.stderr!.on('data', (d) => {
    stderr += d;
  });
  const done = new Promise<number>((r) => child.on('exit', (code) => r(code ?? 1)));
  return { child, stdout: () => stdout, stderr: () => stderr, done };
}

async function cli(args: string[], env: Record<string, string>) {
  const run = startCli(args, env);
  const code = await run.done;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

async function waitFor<T>(check: () => T | undefined, what: string, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A reverse proxy in front of the app that records each request's method and path. */
async function recordingProxy(
  target: string,
): Promise<{ url: string; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = [];
  const upstream = new URL(target);
  const server: Server = createServer((req, res) => {
    seen.push(`${req.method} ${(req.url ?? '').split('?')[0]}`);
    const forward = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.writeHead(502).end());
    req.pipe(forward);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    seen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

for (const backend of backends()) {
  describe(`CLI authorization and the postwave CLI (${backend})`, () => {
    let env: TelegramApp;
    let configDir: string;
    before(async () => {
      env = await startTelegramApp(backend);
      configDir = mkdtempSync(join(tmpdir(), 'postwave-cli-'));
    });
    after(async () => {
      await env?.stop();
      rmSync(configDir, { recursive: true, force: true });
    });

    test('login end to end, then post with media to Telegram, list and show posts', async () => {
      const { client: browser } = await signUp(env.app.url, 'cli');
      const accountId = await connectTelegram(browser);
      const cliEnv = { POSTWAVE_CONFIG_DIR: configDir };

      const login = startCli(
        ['login', '--server', env.app.url, '--no-browser', '--device', 'CI runner'],
        cliEnv,
      );
      const url = await waitFor(
        () => /(http:\/\/\S+\/api\/cli\/authorize\?\S+)/.exec(login.stderr())?.[1],
        'the URL',
      );
      const { page, location } = await decide(browser, url, 'approve');
      assert.match(page, /CI runner/, 'the approval page names the device');
      assert.match(location, /^http:\/\/127\.0\.0\.1:\d+\/callback\?code=pwc_[^&]+&state=/);
      const callback = await fetch(location);
      assert.equal(callback.status, 200);
      assert.equal(await login.done, 0, login.stderr());
      assert.match(login.stdout(), /Logged in to/);
      assert.equal(statSync(join(configDir, 'config.json')).mode & 0o777, 0o600);

      const tokens = await browser.json('/api/v1/tokens');
      const cliToken = tokens.body.tokens.find((t: { kind: string }) => t.kind === 'cli');
      assert.ok(cliToken, 'the CLI token is listed');
      assert.equal(cliToken.name, 'CLI: CI runner');

      const who = await cli(['whoami', '--json'], cliEnv);
      assert.equal(who.code, 0, who.stderr);
      assert.match(JSON.parse(who.stdout).user.email, /^cli-/);

      const accounts = await cli(['accounts', '--json'], cliEnv);
      assert.equal(JSON.parse(accounts.stdout).accounts[0].id, accountId);

      const file = join(configDir, 'picture.png');
      writeFileSync(file, samplePng());
      // The API calls go through a recording proxy: the file must go up by presign + PUT, not POST /upload.
      const proxy = await recordingProxy(env.app.url);
      let posted: Awaited<ReturnType<typeof cli>>;
      try {
        const { token } = JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8'));
        posted = await cli(
          ['post', 'Hello from the CLI', '--account', accountId, '--media', file, '--json'],
          { ...cliEnv, POSTWAVE_URL: proxy.url, POSTWAVE_TOKEN: token },
        );
      } finally {
        await proxy.close();
      }
      assert.equal(posted.code, 0, posted.stderr);
      assert.deepEqual(proxy.seen, ['POST /api/v1/upload/presign', 'POST /api/v1/posts']);
      const post = JSON.parse(posted.stdout);
      assert.equal(post.status, 'posted');
      const stored = await fetch(`${env.app.url}/media/${post.media[0].key}`);
      assert.equal(stored.status, 200, 'the PUT stored the file');
      assert.deepEqual(Buffer.from(await stored.arrayBuffer()), samplePng());
      const sent = env.telegram.sent.at(-1)!;
      assert.equal(sent.caption, 'Hello from the CLI');
      assert.equal(sent.method, 'sendPhoto');
      assert.deepEqual(sent.files[0]!.bytes, samplePng());

      const draft = await cli(['post', 'Later', '-a', accountId, '--draft', '--json'], cliEnv);
      assert.equal(JSON.parse(draft.stdout).status, 'draft');

      const list = await cli(['posts', 'list', '--json'], cliEnv);
      assert.equal(list.code, 0, list.stderr);
      const listed = JSON.parse(list.stdout);
      assert.deepEqual(
        listed.posts.map((p: { status: string }) => p.status),
        ['draft', 'posted'],
      );
      const show = await cli(['posts', 'show', post.id], cliEnv);
      assert.match(show.stdout, /posted/);

      const invalid = await cli(['validate', 'x'.repeat(5000), '-a', accountId], cliEnv);
      assert.equal(invalid.code, 1);
      assert.match(invalid.stdout, /Not valid/);

      const deleted = await cli(['posts', 'delete', JSON.parse(draft.stdout).id], cliEnv);
      assert.equal(deleted.code, 0, deleted.stderr);
      const refused = await cli(['posts', 'delete', post.id], cliEnv);
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /Posted posts cannot be changed/);

      // Revoked in the web app: the CLI says what to do.
      assert.equal((await browser.fetch(`/api/v1/tokens/${cliToken.id}`, { method: 'DELETE' })).status, 204);
      const after = await cli(['accounts'], cliEnv);
      assert.equal(after.code, 1);
      assert.match(after.stderr, /postwave login/);

      const logout = await cli(['logout'], cliEnv);
      assert.equal(logout.code, 0);
      const loggedOut = await cli(['accounts'], { ...cliEnv, POSTWAVE_URL: env.app.url });
      assert.equal(loggedOut.code, 2);
      assert.match(loggedOut.stderr, /Not logged in/);
    });

    test('presign, PUT the exact bytes, post: reaches Telegram; other bytes are refused and store nothing', async () => {
      const { api } = await userWithToken(env.app.url, 'presign');
      const accountId = await connectTelegram(api, '@updates');
      const png = samplePng();
      const presign = () =>
        api.json('/api/v1/upload/presign', {
          json: { filename: 'cover.png', contentType: 'image/png', size: png.length },
        });
      const put = (uploadUrl: string, headers: Record<string, string>, body: Uint8Array<ArrayBuffer>) =>
        fetch(uploadUrl, { method: 'PUT', headers, body });

      const ok = await presign();
      assert.equal(ok.status, 201);
      assert.equal(ok.body.method, 'PUT');
      assert.equal(new URL(ok.body.uploadUrl).pathname, `/media/${ok.body.media.key}`);
      const stored = await put(ok.body.uploadUrl, ok.body.headers, new Uint8Array(png));
      assert.equal(stored.status, 201, await stored.clone().text());
      assert.equal((await stored.json()).media.key, ok.body.media.key);
      const posted = await api.json('/api/v1/posts', {
        json: { message: 'Presigned', accountIds: [accountId], postingMode: 'now', media: ok.body.media },
      });
      assert.equal(posted.status, 201, JSON.stringify(posted.body));
      assert.equal(posted.body.status, 'posted');
      const sent = env.telegram.sent.at(-1)!;
      assert.equal(sent.caption, 'Presigned');
      assert.deepEqual(sent.files[0]!.bytes, png);

      // Same length, but not the PNG that was declared; then the right type with a byte too many.
      const bad = await presign();
      const text = new Uint8Array(Buffer.alloc(png.length, 'x'));
      const wrongBytes = await put(bad.body.uploadUrl, bad.body.headers, text);
      assert.equal(wrongBytes.status, 415);
      assert.equal((await wrongBytes.json()).code, 'unsupported_media_type');
      const longer = await put(
        bad.body.uploadUrl,
        bad.body.headers,
        new Uint8Array(Buffer.concat([png, Buffer.from('x')])),
      );
      assert.equal(longer.status, 400);
      const wrongType = await put(bad.body.uploadUrl, { 'Content-Type': 'image/jpeg' }, new Uint8Array(png));
      assert.equal(wrongType.status, 415);
      assert.equal((await fetch(bad.body.media.url)).status, 404, 'nothing was stored');
      const refused = await api.json('/api/v1/posts', {
        json: {
          message: 'Nothing there',
          accountIds: [accountId],
          postingMode: 'now',
          media: bad.body.media,
        },
      });
      assert.equal(refused.status, 422);
      assert.equal(refused.body.errors[0].code, 'media_not_found');
      assert.equal(env.telegram.sent.at(-1)!.caption, 'Presigned', 'nothing more was sent');
    });

    test('post takes --thread, --override, --alt-text and --first-comment; validate reports per account', async () => {
      const { api } = await userWithToken(env.app.url, 'composer-cli');
      const news = await connectTelegram(api, '@news');
      const updates = await connectTelegram(api, '@updates');
      const token = api.token!;
      const cliEnv = { POSTWAVE_URL: env.app.url, POSTWAVE_TOKEN: token, POSTWAVE_CONFIG_DIR: configDir };
      const dir = mkdtempSync(join(tmpdir(), 'postwave-cli-media-'));
      const photo = join(dir, 'photo.png');
      writeFileSync(photo, samplePng());
      try {
        const refused = await cli(
          [
            'validate',
            'Hi',
            '-a',
            news,
            '--media',
            photo,
            '--alt-text',
            'A square',
            '--first-comment',
            'More below',
          ],
          cliEnv,
        );
        assert.equal(refused.code, 1, refused.stderr);
        assert.match(refused.stdout, /first_comment_unsupported at accountOptions\.[^.]+\.firstComment/);
        assert.match(refused.stdout, /warning: .*does not support alt text/);

        const posted = await cli(
          [
            'post',
            'CLI thread one',
            '-a',
            news,
            '-a',
            updates,
            '--thread',
            'CLI thread two',
            '--override',
            `${updates}=CLI updates version`,
            '--json',
          ],
          cliEnv,
        );
        assert.equal(posted.code, 0, posted.stderr);
        const post = JSON.parse(posted.stdout);
        assert.deepEqual(post.overrides, { [updates]: { message: 'CLI updates version' } });
        assert.deepEqual(post.thread, [{ message: 'CLI thread two', media: [] }]);
        assert.deepEqual(
          post.results.map((r: { parts: { status: string }[] }) => r.parts.map((p) => p.status)),
          [
            ['posted', 'posted'],
            ['posted', 'posted'],
          ],
        );
        const texts = env.telegram.sent.map((m) => `${m.chatId}:${m.text}`);
        assert.ok(texts.includes('-1001:CLI thread one'));
        assert.ok(texts.includes('-1002:CLI updates version'));
        assert.equal(texts.filter((t) => t.endsWith(':CLI thread two')).length, 2);

        const shown = await cli(['posts', 'show', post.id], cliEnv);
        assert.match(shown.stdout, /part 1: posted/);
        const usage = await cli(['post', 'x', '-a', news, '--override', 'not-an-account=y'], cliEnv);
        assert.equal(usage.code, 2);
        const extraAlt = await cli(['post', 'x', '-a', news, '--alt-text', 'no media'], cliEnv);
        assert.equal(extraAlt.code, 2);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    test('post --repeat-every sends recycle; a bad value is the server’s 422 naming the field', async () => {
      const { api } = await userWithToken(env.app.url, 'recycle-cli');
      const news = await connectTelegram(api, '@news');
      const cliEnv = {
        POSTWAVE_URL: env.app.url,
        POSTWAVE_TOKEN: api.token!,
        POSTWAVE_CONFIG_DIR: configDir,
      };
      const drafted = await cli(
        [
          'post',
          'CLI evergreen',
          '-a',
          news,
          '--draft',
          '--repeat-every',
          '30',
          '--repeat-jitter',
          '45',
          '--json',
        ],
        cliEnv,
      );
      assert.equal(drafted.code, 0, drafted.stderr);
      assert.deepEqual(JSON.parse(drafted.stdout).recycle, {
        intervalDays: 30,
        maxTimes: 3,
        jitterMinutes: 45,
      });
      const refused = await cli(['post', 'x', '-a', news, '--draft', '--repeat-every', '3'], cliEnv);
      assert.equal(refused.code, 1, refused.stdout);
      assert.match(refused.stderr, /recycle\.intervalDays/);
      assert.equal((await cli(['post', 'x', '-a', news, '--repeat-times', '2'], cliEnv)).code, 2);
    });

    test('every command has --help; usage errors exit 2', async () => {
      for (const command of ['login', 'logout', 'whoami', 'accounts', 'post', 'validate', 'posts']) {
        const res = await cli([command, '--help'], {});
        assert.equal(res.code, 0, command);
        assert.match(res.stdout, /Usage: /);
      }
      assert.equal((await cli(['--help'], {})).code, 0);
      assert.equal((await cli(['post', '--bogus'], {})).code, 2);
      assert.equal((await cli(['frobnicate'], {})).code, 2);
    });

    test('the authorize URL sends a signed-out browser to sign in, then back', async () => {
      const { challenge } = pkce();
      const res = await new Client(env.app.url).fetch(`/api/cli/authorize?${authorizeQuery(challenge)}`);
      assert.equal(res.status, 303);
      const location = new URL(res.headers.get('location')!, env.app.url);
      assert.equal(location.pathname, '/signin');
      const back = new URL(location.searchParams.get('callbackUrl')!);
      assert.equal(back.pathname, '/cli/authorize');
      assert.equal(back.searchParams.get('device_name'), 'Test laptop');
    });

    test('only loopback redirect URIs, S256 and well-formed challenges are accepted', async () => {
      const { client } = await signUp(env.app.url, 'cli-params');
      const { challenge } = pkce();
      for (const redirect of [
        'https://evil.example/callback',
        'http://evil.example:8080/callback',
        'http://127.0.0.1.evil.example:80/cb',
        'http://user@127.0.0.1:1234/cb',
        'http://127.0.0.1/callback',
        'http://10.0.0.1:1234/callback',
        'javascript:alert(1)',
      ]) {
        const res = await client.json(`/api/cli/authorize?${authorizeQuery(challenge, redirect)}`);
        assert.equal(res.status, 400, redirect);
        assert.equal(res.body.code, 'invalid_request');
      }
      for (const ok of ['http://localhost:9/cb', 'http://[::1]:9/cb', 'http://127.0.0.1:9/cb']) {
        const res = await client.fetch(`/api/cli/authorize?${authorizeQuery(challenge, ok)}`);
        assert.equal(res.status, 303, ok);
        assert.match(res.headers.get('location')!, /^\/cli\/authorize\?/);
      }
      const plain = await client.json(
        `/api/cli/authorize?${authorizeQuery(challenge, undefined, { code_challenge_method: 'plain' })}`,
      );
      assert.equal(plain.status, 400);
      const short = await client.json(`/api/cli/authorize?${authorizeQuery('abc')}`);
      assert.equal(short.status, 400);
    });

    test('deny redirects with access_denied; codes are single-use and need the right verifier', async () => {
      const { client } = await signUp(env.app.url, 'cli-codes');
      const { verifier, challenge } = pkce();
      const denied = await decide(client, `/api/cli/authorize?${authorizeQuery(challenge)}`, 'deny');
      const deniedUrl = new URL(denied.location);
      assert.equal(deniedUrl.searchParams.get('error'), 'access_denied');
      assert.equal(deniedUrl.searchParams.get('state'), 'st4te');
      assert.equal(deniedUrl.searchParams.get('code'), null);

      const approved = await decide(client, `/api/cli/authorize?${authorizeQuery(challenge)}`, 'approve');
      const code = new URL(approved.location).searchParams.get('code')!;
      const anon = new Client(env.app.url);
      anon.origin = undefined;
      const wrong = await anon.json('/api/cli/authorize', { json: { code, code_verifier: pkce().verifier } });
      assert.equal(wrong.status, 400);
      assert.equal(wrong.body.code, 'invalid_request');
      assert.equal(wrong.body.errors[0].code, 'invalid_grant');
      const burned = await anon.json('/api/cli/authorize', { json: { code, code_verifier: verifier } });
      assert.equal(burned.status, 400, 'a failed attempt burns the code');

      const again = await decide(client, `/api/cli/authorize?${authorizeQuery(challenge)}`, 'approve');
      const code2 = new URL(again.location).searchParams.get('code')!;
      const ok = await anon.json('/api/cli/authorize', { json: { code: code2, code_verifier: verifier } });
      assert.equal(ok.status, 200);
      assert.match(ok.body.token, /^pw_/);
      assert.ok(Date.parse(ok.body.expiresAt) > Date.now());
      const reuse = await anon.json('/api/cli/authorize', { json: { code: code2, code_verifier: verifier } });
      assert.equal(reuse.status, 400);
      assert.equal(reuse.body.code, 'invalid_request');
      assert.equal(reuse.body.errors[0].code, 'invalid_grant');
      assert.equal((await anon.withToken(ok.body.token).json('/api/v1/posts')).status, 200);
    });

    test('the approval form refuses cross-site posts and signed-out browsers', async () => {
      const { client } = await signUp(env.app.url, 'cli-csrf');
      const { challenge } = pkce();
      const form = new URLSearchParams({
        ...Object.fromEntries(new URLSearchParams(authorizeQuery(challenge))),
        decision: 'approve',
      });
      const crossSite = await client.fetch('/api/cli/authorize/decision', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
        body: form,
      });
      assert.equal(crossSite.status, 403);
      const signedOut = await new Client(env.app.url).fetch('/api/cli/authorize/decision', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form,
      });
      assert.equal(signedOut.status, 303);
      assert.match(signedOut.headers.get('location')!, /^\/signin\?callbackUrl=/);
    });
  });
}
