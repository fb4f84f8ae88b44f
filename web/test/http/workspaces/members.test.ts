import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client, signUp } from '../../helpers/client.ts';
import { backends } from '../../helpers/databases.ts';
import { connectTelegram, startTelegramApp, type TelegramApp } from '../../helpers/fixtures.ts';
import { authorize, exchange, rawMcp, registerClient } from '../../helpers/oauth.ts';
import { assertForbidden, currentWorkspace, invite, tokenIn, verifiedPerson } from './team.ts';

/** Another workspace's resources, switching, bound tokens, removal and invitations (docs/workspaces.md). */

for (const backend of backends()) {
  describe(`workspace members and isolation (${backend})`, () => {
    let env: TelegramApp;
    before(async () => {
      env = await startTelegramApp(backend, { LOG_LEVEL: 'info' });
    });
    after(() => env?.stop());

    test('another workspace’s resources answer 404 exactly like missing ones', async () => {
      const owner = await verifiedPerson(env.app, `iso-owner-${backend}`);
      const ws = await currentWorkspace(owner.session);
      const api = await tokenIn(owner, ws);
      const news = await connectTelegram(api, '@news');
      const post = await api.json('/api/v1/posts', {
        json: { message: 'mine', accountIds: [news], postingMode: 'draft' },
      });
      const outsider = await verifiedPerson(env.app, `iso-outsider-${backend}`);
      const missing = await outsider.session.json(`/api/v1/posts/${crypto.randomUUID()}`);
      for (const path of [
        `/api/v1/posts/${post.body.id}`,
        `/api/v1/accounts/${news}`,
        `/api/v1/workspaces/${ws}`,
        `/api/v1/workspaces/${ws}/members`,
      ]) {
        const res = await outsider.session.json(path);
        assert.equal(res.status, 404, path);
        assert.deepEqual(
          { ...res.body, detail: undefined, title: undefined, type: undefined },
          { ...missing.body, detail: undefined, title: undefined, type: undefined },
        );
      }
      assert.equal(
        (await outsider.session.fetch(`/api/v1/workspaces/${ws}/switch`, { method: 'POST' })).status,
        404,
      );
      const tokenElsewhere = await outsider.session.json('/api/v1/tokens', {
        json: { name: 'sneaky', workspaceId: ws },
      });
      assert.equal(tokenElsewhere.status, 404);
    });

    test('a session switches workspace; tokens stay in the workspace they are bound to', async () => {
      const owner = await verifiedPerson(env.app, `switch-${backend}`);
      const personal = await currentWorkspace(owner.session);
      const personalApi = await tokenIn(owner, personal);
      await connectTelegram(personalApi, '@news');
      const created = await owner.session.json('/api/v1/workspaces', { json: { name: 'Client A' } });
      assert.equal(created.status, 201);
      const clientApi = await tokenIn(owner, created.body.id);
      assert.equal((await clientApi.json('/api/v1/accounts')).body.accounts.length, 0);
      assert.equal((await owner.session.json('/api/v1/accounts')).body.accounts.length, 1);
      const switched = await owner.session.json(`/api/v1/workspaces/${created.body.id}/switch`, {
        method: 'POST',
      });
      assert.equal(switched.status, 200);
      assert.equal(await currentWorkspace(owner.session), created.body.id);
      assert.equal((await owner.session.json('/api/v1/accounts')).body.accounts.length, 0);
      assert.equal(
        (await personalApi.json('/api/v1/accounts')).body.accounts.length,
        1,
        'the token did not move',
      );
      const list = await owner.session.json('/api/v1/workspaces');
      assert.deepEqual(
        list.body.workspaces.map((w: { role: string }) => w.role),
        ['owner', 'owner'],
      );
    });

    test('an Idempotency-Key is the user’s within a workspace: shared by their tokens there, new in another', async () => {
      const owner = await verifiedPerson(env.app, `idem-ws-${backend}`);
      const personal = await currentWorkspace(owner.session);
      const first = await tokenIn(owner, personal, 'first');
      const second = await tokenIn(owner, personal, 'second');
      const news = await connectTelegram(first, '@news');
      const created = await owner.session.json('/api/v1/workspaces', { json: { name: 'Client C' } });
      assert.equal(created.status, 201);
      const elsewhere = await tokenIn(owner, created.body.id, 'elsewhere');
      const updates = await connectTelegram(elsewhere, '@updates');
      const headers = { 'idempotency-key': `key-${backend}` };
      const draft = (accountId: string) => ({
        message: 'once',
        accountIds: [accountId],
        postingMode: 'draft',
      });

      const made = await first.json('/api/v1/posts', { json: draft(news), headers });
      assert.equal(made.status, 201);
      const replayed = await second.json('/api/v1/posts', { json: draft(news), headers });
      assert.equal(replayed.status, 201);
      assert.equal(replayed.headers.get('idempotent-replayed'), 'true', 'another token of the same user');
      assert.equal(replayed.body.id, made.body.id);
      assert.equal(
        (await second.json('/api/v1/posts', { json: { ...draft(news), message: 'other' }, headers })).status,
        422,
      );

      // In another workspace the key starts afresh: never a replay of the first workspace's post.
      const fresh = await elsewhere.json('/api/v1/posts', { json: draft(updates), headers });
      assert.equal(fresh.status, 201);
      assert.equal(fresh.headers.get('idempotent-replayed'), null);
      assert.notEqual(fresh.body.id, made.body.id);
      const same = await elsewhere.json('/api/v1/posts', { json: draft(updates), headers });
      assert.equal(same.headers.get('idempotent-replayed'), 'true');
      assert.equal(same.body.id, fresh.body.id);
    });

    test('each browser session has its own current workspace: a switch in one leaves the others', async () => {
      const owner = await verifiedPerson(env.app, `sessions-${backend}`);
      const personal = await currentWorkspace(owner.session);
      const client = await owner.session.json('/api/v1/workspaces', { json: { name: 'Client B' } });
      assert.equal(client.status, 201);
      // A second browser signs in as the same person, as a browser does (CSRF, credentials).
      const signIn = async () => {
        const browser = new Client(env.app.url);
        const csrf = await browser.json('/api/auth/csrf');
        const res = await browser.fetch('/api/auth/callback/credentials', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            email: owner.email,
            password: 'correct horse battery',
            csrfToken: csrf.body.csrfToken,
            callbackUrl: `${env.app.url}/`,
          }),
        });
        assert.equal(res.status, 302);
        return browser;
      };
      const other = await signIn();
      assert.equal(await currentWorkspace(other), personal);

      const switched = await owner.session.json(`/api/v1/workspaces/${client.body.id}/switch`, {
        method: 'POST',
      });
      assert.equal(switched.status, 200);
      assert.equal(await currentWorkspace(owner.session), client.body.id);
      assert.equal(await currentWorkspace(other), personal, 'the other browser stayed where it was');
      // A new sign-in starts where the person last switched to.
      assert.equal(await currentWorkspace(await signIn()), client.body.id);
      // And the other browser switches on its own.
      await other.json(`/api/v1/workspaces/${client.body.id}/switch`, { method: 'POST' });
      await owner.session.json(`/api/v1/workspaces/${personal}/switch`, { method: 'POST' });
      assert.equal(await currentWorkspace(other), client.body.id);
      assert.equal(await currentWorkspace(owner.session), personal);
    });

    test('removing a member ends their tokens and MCP grants for the workspace at once', async () => {
      const owner = await verifiedPerson(env.app, `rm-owner-${backend}`);
      const ws = await currentWorkspace(owner.session);
      const member = await verifiedPerson(env.app, `rm-member-${backend}`);
      await invite(owner.session, ws, member, 'editor');
      const memberApi = await tokenIn(member, ws);
      const clientId = await registerClient(env.app.url);
      const grant = await exchange(
        env.app.url,
        clientId,
        await authorize(env.app.url, member.session, clientId),
      );
      const { access_token: mcpToken } = (await grant.json()) as { access_token: string };
      assert.equal((await rawMcp(env.app.url, mcpToken)).status, 200);
      assert.equal((await memberApi.json('/api/v1/posts')).status, 200);
      const removed = await owner.session.fetch(`/api/v1/workspaces/${ws}/members/${member.userId}`, {
        method: 'DELETE',
      });
      assert.equal(removed.status, 204);
      assert.equal((await memberApi.json('/api/v1/posts')).status, 401);
      assert.equal((await rawMcp(env.app.url, mcpToken)).status, 401);
      const members = await owner.session.json(`/api/v1/workspaces/${ws}/members`);
      assert.deepEqual(
        members.body.members.map((m: { userId: string }) => m.userId),
        [owner.userId],
      );
      // The removed person is back in their own workspace, not locked out.
      assert.notEqual(await currentWorkspace(member.session), ws);
    });

    test('any member may leave; removing someone else needs an admin; the last owner stays', async () => {
      const owner = await verifiedPerson(env.app, `leave-owner-${backend}`);
      const ws = await currentWorkspace(owner.session);
      const viewer = await verifiedPerson(env.app, `leave-viewer-${backend}`);
      const editor = await verifiedPerson(env.app, `leave-editor-${backend}`);
      await invite(owner.session, ws, viewer, 'viewer');
      await invite(owner.session, ws, editor, 'editor');
      const viewerApi = await tokenIn(viewer, ws);
      const path = `/api/v1/workspaces/${ws}/members`;

      const refused = await viewerApi.json(`${path}/${editor.userId}`, { method: 'DELETE' });
      assert.equal(refused.status, 403);
      assert.equal(refused.body.requiredRole, 'admin');
      const left = await viewerApi.fetch(`${path}/${viewer.userId}`, { method: 'DELETE' });
      assert.equal(left.status, 204);
      assert.equal((await viewerApi.json('/api/v1/posts')).status, 401, 'their token ended with them');
      const lastOwner = await owner.session.json(`${path}/${owner.userId}`, { method: 'DELETE' });
      assert.equal(lastOwner.status, 409);
      assert.equal(lastOwner.body.code, 'last_owner');
      const members = await owner.session.json(path);
      assert.deepEqual(
        members.body.members.map((m: { userId: string }) => m.userId).sort(),
        [owner.userId, editor.userId].sort(),
      );
    });

    test('invitations: another address is 403, used, revoked or unknown links are 404', async () => {
      const owner = await verifiedPerson(env.app, `inv-owner-${backend}`);
      const ws = await currentWorkspace(owner.session);
      const invitee = await verifiedPerson(env.app, `inv-guest-${backend}`);
      const stranger = await verifiedPerson(env.app, `inv-stranger-${backend}`);
      const created = await owner.session.json(`/api/v1/workspaces/${ws}/invitations`, {
        json: { email: invitee.email, role: 'contributor' },
      });
      assert.equal(created.status, 201);
      assert.match(created.body.url, /\/invite\/pwi_[A-Za-z0-9_-]{43}$/);
      const listed = await owner.session.json(`/api/v1/workspaces/${ws}/invitations`);
      assert.equal(listed.body.invitations.length, 1);
      assert.ok(!JSON.stringify(listed.body).includes(created.body.url), 'never the link again');
      const token = decodeURIComponent(created.body.url.split('/').pop());
      const mismatch = await stranger.session.json('/api/v1/invitations/accept', { json: { token } });
      assert.equal(mismatch.status, 403);
      assert.equal(mismatch.body.code, 'invitation_email_mismatch');
      // The invited address, not verified yet: its own code (a `forbidden` always names a role).
      const unverified = await signUp(env.app.url, `inv-unverified-${backend}`);
      const forUnverified = await owner.session.json(`/api/v1/workspaces/${ws}/invitations`, {
        json: { email: unverified.user.email, role: 'viewer' },
      });
      const early = await unverified.client.json('/api/v1/invitations/accept', {
        json: { token: decodeURIComponent(forUnverified.body.url.split('/').pop()) },
      });
      assert.equal(early.status, 403);
      assert.equal(early.body.code, 'email_unverified');
      assert.equal(early.body.requiredRole, undefined);
      const page = await invitee.session.fetch(`/invite/${encodeURIComponent(token)}`);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /Accept the invitation/);
      assert.equal(
        (await invitee.session.json('/api/v1/invitations/accept', { json: { token } })).status,
        200,
      );
      assert.equal(
        (await invitee.session.json('/api/v1/invitations/accept', { json: { token } })).status,
        404,
        'used',
      );
      assert.equal(
        (await invitee.session.json('/api/v1/invitations/accept', { json: { token: 'pwi_nope' } })).status,
        404,
      );
      // Its page says so with a 404 too, signed in or not, for a used or an unknown link.
      for (const link of [token, 'pwi_nope']) {
        for (const who of [invitee.session, new Client(env.app.url)]) {
          const gone = await who.fetch(`/invite/${encodeURIComponent(link)}`);
          assert.equal(gone.status, 404, link);
          const html = await gone.text();
          assert.match(html, /This invitation is no longer valid/, link);
          assert.doesNotMatch(html, /Accept the invitation|Create your account/, link);
        }
      }
      const second = await owner.session.json(`/api/v1/workspaces/${ws}/invitations`, {
        json: { email: stranger.email, role: 'viewer' },
      });
      assert.equal(
        (
          await owner.session.fetch(`/api/v1/workspaces/${ws}/invitations/${second.body.id}`, {
            method: 'DELETE',
          })
        ).status,
        204,
      );
      const revoked = decodeURIComponent(second.body.url.split('/').pop());
      assert.equal(
        (await stranger.session.json('/api/v1/invitations/accept', { json: { token: revoked } })).status,
        404,
      );
      const members = await owner.session.json(`/api/v1/workspaces/${ws}/members`);
      assert.deepEqual(members.body.members.map((m: { role: string }) => m.role).sort(), [
        'contributor',
        'owner',
      ]);
      // Inviting a member (any letter case) is refused naming the field: the link could do nothing.
      const already = await owner.session.json(`/api/v1/workspaces/${ws}/invitations`, {
        json: { email: invitee.email.toUpperCase(), role: 'editor' },
      });
      assert.equal(already.status, 422, JSON.stringify(already.body));
      assert.equal(already.body.errors[0].path, 'email');
      assert.equal(already.body.errors[0].code, 'already_member');
    });

    test('a token bound to another workspace answers DELETE with 404 and stays live', async () => {
      const owner = await verifiedPerson(env.app, `tok-owner-${backend}`);
      const personal = await currentWorkspace(owner.session);
      const personalApi = await tokenIn(owner, personal);
      const other = await owner.session.json('/api/v1/workspaces', { json: { name: 'Elsewhere' } });
      assert.equal(other.status, 201);
      const made = await owner.session.json('/api/v1/tokens', {
        json: { name: 'elsewhere', workspaceId: other.body.id },
      });
      assert.equal(made.status, 201);
      const otherApi = owner.session.withToken(made.body.token);
      const missing = await owner.session.json(`/api/v1/tokens/${crypto.randomUUID()}`, { method: 'DELETE' });
      for (const caller of [owner.session, personalApi]) {
        const res = await caller.json(`/api/v1/tokens/${made.body.id}`, { method: 'DELETE' });
        assert.equal(res.status, 404);
        assert.deepEqual(
          { ...res.body, detail: undefined, title: undefined, type: undefined },
          { ...missing.body, detail: undefined, title: undefined, type: undefined },
        );
      }
      assert.equal((await otherApi.json('/api/v1/posts')).status, 200, 'not revoked');
      // From its own workspace it is revoked as usual.
      assert.equal(
        (await otherApi.fetch(`/api/v1/tokens/${made.body.id}`, { method: 'DELETE' })).status,
        204,
      );
      assert.equal((await otherApi.json('/api/v1/posts')).status, 401);
    });

    test('only owners revoke an owner invitation, as only owners create one', async () => {
      const owner = await verifiedPerson(env.app, `inv-own-${backend}`);
      const ws = await currentWorkspace(owner.session);
      const admin = await verifiedPerson(env.app, `inv-admin-${backend}`);
      await invite(owner.session, ws, admin, 'admin');
      const adminApi = await tokenIn(admin, ws);
      const path = `/api/v1/workspaces/${ws}/invitations`;
      const open = async () =>
        (await owner.session.json(path)).body.invitations.map((i: { id: string }) => i.id);
      const forOwner = await owner.session.json(path, {
        json: { email: 'co-owner@example.com', role: 'owner' },
      });
      assert.equal(forOwner.status, 201);
      assertForbidden(await adminApi.json(`${path}/${forOwner.body.id}`, { method: 'DELETE' }), 'owner');
      assert.deepEqual(await open(), [forOwner.body.id], 'still open');
      // Admins revoke the invitations they may make.
      const forViewer = await adminApi.json(path, { json: { email: 'looker@example.com', role: 'viewer' } });
      assert.equal(forViewer.status, 201);
      assert.equal((await adminApi.fetch(`${path}/${forViewer.body.id}`, { method: 'DELETE' })).status, 204);
      assert.equal(
        (await owner.session.fetch(`${path}/${forOwner.body.id}`, { method: 'DELETE' })).status,
        204,
      );
      assert.deepEqual(await open(), []);
    });

    test('a new person signs up through the invitation page and comes back to it', async () => {
      const owner = await verifiedPerson(env.app, `new-owner-${backend}`);
      const ws = await currentWorkspace(owner.session);
      const created = await owner.session.json(`/api/v1/workspaces/${ws}/invitations`, {
        json: { email: 'newcomer@example.com', role: 'editor' },
      });
      const path = new URL(created.body.url).pathname;
      const anonymous = await new (await import('../../helpers/client.ts')).Client(env.app.url).fetch(path);
      assert.equal(anonymous.status, 200);
      const html = await anonymous.text();
      assert.ok(
        html.includes(`/signup?next=${encodeURIComponent(path)}`.replaceAll('&', '&amp;')) ||
          html.includes('/signup?next='),
        'links to sign-up',
      );
      assert.match(html, /newcomer@example\.com/);

      // They sign up with the invited address and come back: no SMTP here, so no link was e-mailed.
      const newcomer = new (await import('../../helpers/client.ts')).Client(env.app.url);
      const signedUp = await newcomer.json('/api/auth/signup', {
        json: { email: 'newcomer@example.com', password: 'correct horse battery', name: 'Newcomer' },
      });
      assert.equal(signedUp.status, 201, JSON.stringify(signedUp.body));
      const back = await newcomer.fetch(path);
      assert.equal(back.status, 200);
      const unconfirmed = await back.text();
      assert.match(unconfirmed, /data-testid="mail-not-set-up"/);
      assert.match(unconfirmed, /no SMTP server is set up/);
      assert.match(unconfirmed, /Ask whoever runs this server for that link/);
      assert.match(unconfirmed, /href="\/setup#setup-mail"/);
      assert.doesNotMatch(unconfirmed, /link we sent|We sent/, 'never claims a mail was sent');
      assert.doesNotMatch(unconfirmed, /Send a new link/);
    });
  });
}
