import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { samplePdf, samplePng } from '@postwave/shared/testing';
import { type RunningApp, startApp } from '../helpers/app.ts';
import { userWithToken } from '../helpers/client.ts';

/** The security headers (SECURITY.md, "Browser hardening") on every page and on /media. */
describe('Scheduler security headers', () => {
  let app: RunningApp;
  before(async () => {
    app = await startApp('pglite');
  });
  after(() => app?.stop());

  const checkPage = async (response: Response, where: string) => {
    const csp = response.headers.get('content-security-policy') ?? '';
    assert.match(csp, /frame-ancestors 'none'/, where);
    assert.match(csp, /object-src 'none'/, where);
    assert.equal(response.headers.get('x-frame-options'), 'DENY', where);
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff', where);
    assert.ok(response.headers.get('referrer-policy'), where);
    assert.match(response.headers.get('permissions-policy') ?? '', /camera=\(\)/, where);
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    assert.ok(nonce, `${where}: a script nonce in ${csp}`);
    assert.doesNotMatch(csp, /script-src[^;]*'unsafe-inline'/, where);
    const html = await response.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    assert.ok(scripts.length > 0, `${where}: Next's scripts`);
    for (const tag of scripts) assert.ok(tag.includes(`nonce="${nonce}"`), `${where}: ${tag}`);
    return nonce;
  };

  test("every page: a strict CSP with a fresh nonce on each of Next's scripts, no framing", async () => {
    const first = await checkPage(await fetch(`${app.url}/signin`), '/signin');
    const second = await checkPage(await fetch(`${app.url}/signin`), '/signin again');
    assert.notEqual(first, second, 'a new nonce per request');
    await checkPage(await fetch(`${app.url}/signup`), '/signup');
    await checkPage(await fetch(`${app.url}/forgot-password`), '/forgot-password');
    const { session } = await userWithToken(app.url, 'headers');
    for (const path of [
      '/accounts',
      '/compose',
      '/settings',
      '/cli/authorize?redirect_uri=http://127.0.0.1:9/callback&state=s&code_challenge=x&code_challenge_method=S256',
      '/oauth/consent',
    ]) {
      const response = await session.fetch(path);
      if (response.status >= 300 && response.status < 400) {
        assert.match(response.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/, path);
        continue;
      }
      await checkPage(response, path);
    }
  });

  test('the OAuth error page (an HTML answer of an API route) cannot be framed', async () => {
    const response = await fetch(`${app.url}/api/oauth/authorize?client_id=nobody&response_type=code`);
    assert.match(response.headers.get('content-type') ?? '', /text\/html/);
    assert.match(response.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
  });

  test('API answers: nothing may load or frame them', async () => {
    const response = await fetch(`${app.url}/api/v1/accounts`);
    assert.equal(response.status, 401);
    assert.match(response.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    assert.match(response.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
  });

  test('/media: nosniff, sandboxed, and anything but images, video and audio downloads', async () => {
    const { api } = await userWithToken(app.url, 'media-headers');
    const upload = async (bytes: Buffer, type: string, name: string) => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
      const res = await api.json('/api/v1/upload', { method: 'POST', body: form });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.media as { url: string };
    };
    const png = await upload(samplePng(), 'image/png', 'a.png');
    const pdf = await upload(samplePdf(), 'application/pdf', 'a.pdf');
    const image = await fetch(png.url);
    assert.equal(image.status, 200);
    assert.equal(image.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(image.headers.get('content-security-policy'), 'sandbox');
    assert.equal(image.headers.get('content-disposition'), null);
    const document = await fetch(pdf.url);
    assert.equal(document.status, 200);
    assert.equal(document.headers.get('content-type'), 'application/pdf');
    assert.equal(document.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(document.headers.get('content-security-policy'), 'sandbox');
    assert.match(document.headers.get('content-disposition') ?? '', /^attachment/);
    const missing = await fetch(`${app.url}/media/nothing-here.png`);
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get('content-security-policy'), 'sandbox');
    // A /media path no route serves is Next's not-found page: sandboxed and never sniffed too.
    const unserved = await fetch(`${app.url}/media/a/b`);
    assert.equal(unserved.status, 404);
    assert.match(unserved.headers.get('content-security-policy') ?? '', /^sandbox/);
    assert.equal(unserved.headers.get('x-content-type-options'), 'nosniff');
    // A range outside the file is an error like any other: a problem body, sandboxed too.
    const outside = await fetch(png.url, { headers: { range: 'bytes=99999-' } });
    assert.equal(outside.status, 416);
    assert.match(outside.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assert.equal(outside.headers.get('content-range'), `bytes */${samplePng().length}`);
    assert.equal(outside.headers.get('content-security-policy'), 'sandbox');
    assert.equal(((await outside.json()) as { code: string }).code, 'range_not_satisfiable');
  });
});
