import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type RunningApp, startApp } from '../helpers/app.ts';
import { userWithToken } from '../helpers/client.ts';

/*
 * A query parameter given twice (`?status=a&status=b`, a pasted or hand-edited address) reaches a
 * page as an array. Every page that reads its query answers it as it answers one value it does
 * not know, never with a 500. One backend is enough: nothing here depends on the database's kind.
 */
describe('pages read a repeated query parameter without failing', () => {
  let app: RunningApp;
  before(async () => {
    app = await startApp('pglite');
  });
  after(() => app?.stop());

  test('every page that reads its query', async () => {
    const { session, api } = await userWithToken(app.url, 'twice');
    const draft = await api.json('/api/v1/posts', {
      json: { message: 'twice', accountIds: [], postingMode: 'draft' },
    });
    const twice = (name: string, a: string, b: string) =>
      `${name}=${encodeURIComponent(a)}&${name}=${encodeURIComponent(b)}`;
    const pages = [
      `/posts?${twice('status', 'draft', 'posted')}&${twice('cursor', 'x', 'y')}`,
      ...(draft.status === 201
        ? [`/posts/${draft.body.id}?${twice('done', 'now', 'draft')}&${twice('approve', '1', '0')}`]
        : []),
      `/calendar?${twice('view', 'week', 'month')}&${twice('date', '2026-01-05', '2026-02-01')}&${twice('account', 'a', 'b')}&${twice('status', 'posted', 'failed')}`,
      `/analytics?${twice('from', '2026-01-01', '2026-02-01')}&${twice('to', '2026-01-31', '2026-02-28')}&${twice('best', 'a', 'b')}`,
      `/accounts?${twice('error', 'a', 'b')}&${twice('connected', 'a', 'b')}&${twice('welcome', '1', '2')}`,
      `/accounts/pick?${twice('pending', 'a', 'b')}`,
      `/compose?${twice('template', 'a', 'b')}&${twice('media', 'a', 'b')}&${twice('post', 'a', 'b')}`,
      `/settings?${twice('linked', 'a', 'b')}&${twice('link_error', 'a', 'b')}&${twice('deleted', 'workspace', 'x')}`,
      `/settings/audit?${twice('action', 'a', 'b')}&${twice('from', '2026-01-01', 'x')}&${twice('cursor', 'a', 'b')}`,
      `/invite/pwi_nope?${twice('verification', 'sent', 'x')}`,
      `/cli/authorize?${twice('redirectUri', 'http://127.0.0.1:9/cb', 'x')}&${twice('deviceName', 'a', 'b')}&${twice('state', 'a', 'b')}`,
      `/oauth/consent?${twice('client_id', 'a', 'b')}&${twice('redirect_uri', 'a', 'b')}`,
      `/setup?${twice('step', 'a', 'b')}`,
    ];
    for (const path of pages) {
      const res = await session.fetch(path);
      assert.ok(res.status < 500, `${path}: ${res.status}`);
      await res.arrayBuffer();
    }
    const anonymous = [
      `/signin?${twice('callbackUrl', '/posts', '/calendar')}&${twice('error', 'a', 'b')}`,
      `/signup?${twice('next', '/posts', '/x')}&${twice('email', 'a@example.com', 'b@example.com')}`,
      `/reset-password?${twice('token', 'a', 'b')}`,
      `/verify-email?${twice('token', 'a', 'b')}`,
    ];
    for (const path of anonymous) {
      const res = await fetch(`${app.url}${path}`, { redirect: 'manual' });
      assert.ok(res.status < 500, `${path}: ${res.status}`);
      await res.arrayBuffer();
    }
  });
});
