import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '../../helpers/client.ts';
import { backends } from '../../helpers/databases.ts';
import { connectTelegram, startTelegramApp, type TelegramApp } from '../../helpers/fixtures.ts';
import {
  assertForbidden,
  buildTeam,
  currentWorkspace,
  invite,
  type Team,
  tokenIn,
  verifiedPerson,
} from './team.ts';

/**
 * The audit log over HTTP (contract section G, docs/workspaces.md#audit-log): an entry for each
 * change with the right actor and target, filters, keyset pages, owners and admins only, and
 * one workspace's log never showing another's.
 */

interface Entry {
  id: string;
  at: string;
  actor: { type: string; id?: string; name: string };
  action: string;
  target: { type: string; id: string };
  details?: Record<string, unknown>;
}

async function allEntries(client: Client, query = ''): Promise<Entry[]> {
  const res = await client.json(`/api/v1/audit?limit=200${query}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.nextCursor, null);
  return res.body.entries;
}

const one = (entries: Entry[], action: string, targetId: string) => {
  const found = entries.filter((e) => e.action === action && e.target.id === targetId);
  assert.equal(found.length, 1, `${action} ${targetId}: ${JSON.stringify(entries.map((e) => e.action))}`);
  return found[0]!;
};

for (const backend of backends()) {
  describe(`audit log (${backend})`, () => {
    let env: TelegramApp;
    let team: Team;
    let news: string;
    const owner = () => team.members.owner;
    const member = (m: { userId: string }) => ({ type: 'member', id: m.userId });

    before(async () => {
      env = await startTelegramApp(backend, { LOG_LEVEL: 'info', ALLOW_PRIVATE_HOSTS: '127.0.0.1:9' });
      team = await buildTeam(env.app, `audit-${backend}`);
      news = await connectTelegram(owner().api, '@news');
    });
    after(() => env?.stop());

    test('members invited and joined, tokens created: by the right member, about the right target', async () => {
      const entries = await allEntries(owner().api);
      for (const role of ['admin', 'editor', 'contributor', 'viewer'] as const) {
        const m = team.members[role];
        const joined = one(entries, 'member.joined', m.userId);
        assert.deepEqual({ type: joined.actor.type, id: joined.actor.id }, member(m));
        assert.equal(joined.actor.name, `audit-${backend}-${role}`);
        assert.equal(joined.details?.role, role);
        const invited = entries.find((e) => e.action === 'member.invited' && e.details?.email === m.email);
        assert.ok(invited, role);
        assert.deepEqual({ type: invited.actor.type, id: invited.actor.id }, member(owner()));
        assert.equal(invited.target.type, 'invitation');
        assert.equal(invited.details?.role, role);
        assert.ok(!JSON.stringify(invited).includes('pwi_'), 'no invitation token');
        const token = entries.find((e) => e.action === 'token.created' && e.actor.id === m.userId);
        assert.equal(token?.target.type, 'token');
        assert.deepEqual(token?.details, { name: 'tests', kind: 'personal' });
      }
      const connected = one(entries, 'account.connected', news);
      assert.deepEqual({ type: connected.actor.type, id: connected.actor.id }, member(owner()));
      assert.equal(connected.details?.platform, 'telegram');
      assert.ok(!JSON.stringify(entries).includes('botToken'), 'no credentials');
      // Newest first.
      const times = entries.map((e) => Date.parse(e.at));
      assert.deepEqual(
        times,
        [...times].sort((a, b) => b - a),
      );
    });

    test('posts created, updated, published (by the system) and deleted', async () => {
      const editor = team.members.editor;
      const draft = await editor.api.json('/api/v1/posts', {
        json: { message: 'audited draft', accountIds: [news], postingMode: 'draft' },
      });
      assert.equal(draft.status, 201);
      const patched = await editor.api.json(`/api/v1/posts/${draft.body.id}`, {
        method: 'PATCH',
        json: { message: 'audited draft, edited' },
      });
      assert.equal(patched.status, 200);
      const now = await owner().api.json('/api/v1/posts', {
        json: { message: 'audited now', accountIds: [news], postingMode: 'now' },
      });
      assert.equal(now.status, 201);
      assert.equal(now.body.status, 'posted');
      // A draft published now later (POST /api/v1/posts/{id}): published, never scheduled.
      const later = await editor.api.json('/api/v1/posts', {
        json: { message: 'audited draft, published later', accountIds: [news], postingMode: 'draft' },
      });
      assert.equal(later.status, 201);
      const published = await editor.api.json(`/api/v1/posts/${later.body.id}`, {
        json: { postingMode: 'now' },
      });
      assert.equal(published.status, 200, JSON.stringify(published.body));
      assert.equal(published.body.status, 'posted');
      const gone = await team.members.admin.api.fetch(`/api/v1/posts/${draft.body.id}`, { method: 'DELETE' });
      assert.equal(gone.status, 204);

      const entries = await allEntries(owner().api);
      const created = one(entries, 'post.created', draft.body.id);
      assert.deepEqual({ type: created.actor.type, id: created.actor.id }, member(editor));
      assert.deepEqual(created.target, { type: 'post', id: draft.body.id });
      assert.equal(created.details?.status, 'draft');
      const updated = one(entries, 'post.updated', draft.body.id);
      assert.deepEqual(updated.details?.fields, ['message']);
      assert.equal(updated.actor.id, editor.userId);
      const deleted = one(entries, 'post.deleted', draft.body.id);
      assert.deepEqual({ type: deleted.actor.type, id: deleted.actor.id }, member(team.members.admin));
      // A post published now was never scheduled: its entry says it was publishing (contract G).
      const createdNow = one(entries, 'post.created', now.body.id);
      assert.equal(createdNow.actor.id, owner().userId);
      assert.deepEqual(createdNow.details, { status: 'publishing', accounts: 1, postingMode: 'now' });
      const publishedNow = one(entries, 'post.published', now.body.id);
      assert.equal(publishedNow.actor.type, 'system');
      assert.equal(publishedNow.actor.id, undefined);
      assert.deepEqual(publishedNow.details, { status: 'posted', accounts: 1 });
      assert.deepEqual(one(entries, 'post.published', later.body.id).details, {
        status: 'posted',
        accounts: 1,
      });
      assert.ok(
        !entries.some(
          (e) => [now.body.id, later.body.id].includes(e.target.id) && e.details?.status === 'scheduled',
        ),
        'no entry calls a post published now scheduled',
      );

      // Its timeline (contract F): created by the member, then the attempt and the outcome; no `scheduled`.
      const timeline = async (id: string) => {
        const res = await owner().api.json(`/api/v1/posts/${id}/events`);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        return res.body.events as {
          type: string;
          actor?: { type: string; name: string };
          outcome?: string;
        }[];
      };
      const nowEvents = await timeline(now.body.id);
      assert.deepEqual(
        nowEvents.map((e) => e.type),
        ['created', 'attempt', 'posted'],
      );
      assert.deepEqual(nowEvents[0]!.actor, { type: 'user', name: `audit-${backend}-owner` });
      assert.equal(nowEvents[1]!.outcome, 'posted');
      assert.deepEqual(
        (await timeline(later.body.id)).map((e) => e.type),
        ['created', 'attempt', 'posted'],
      );
      assert.ok(!JSON.stringify(entries).includes('audited'), 'messages stay on the posts');

      // The deleted draft keeps its timeline for the workspace's members, `deleted` last with who
      // deleted it (contract F); the post itself, another workspace and an unused id answer 404.
      const kept = await team.members.viewer.api.json(`/api/v1/posts/${draft.body.id}/events`);
      assert.equal(kept.status, 200, JSON.stringify(kept.body));
      const keptEvents = kept.body.events as { type: string; at: string; actor?: unknown }[];
      assert.deepEqual(
        keptEvents.map((e) => e.type),
        ['created', 'updated', 'deleted'],
      );
      assert.deepEqual(keptEvents[2]!.actor, { type: 'user', name: `audit-${backend}-admin` });
      assert.ok(keptEvents[2]!.at >= keptEvents[1]!.at);
      assert.equal((await owner().api.json(`/api/v1/posts/${draft.body.id}`)).status, 404);
      const outsider = await verifiedPerson(env.app, `audit-${backend}-outsider`);
      const elsewhere = await tokenIn(outsider, await currentWorkspace(outsider.session));
      assert.equal((await elsewhere.json(`/api/v1/posts/${draft.body.id}/events`)).status, 404);
      assert.equal((await owner().api.json(`/api/v1/posts/${crypto.randomUUID()}/events`)).status, 404);
    });

    test('role changes and removals; a refused change (last owner) writes nothing', async () => {
      const extra = await verifiedPerson(env.app, `audit-${backend}-extra`);
      await invite(owner().session, team.workspaceId, extra, 'viewer');
      const path = `/api/v1/workspaces/${team.workspaceId}/members`;
      const changed = await owner().session.json(`${path}/${extra.userId}`, {
        method: 'PATCH',
        json: { role: 'editor' },
      });
      assert.equal(changed.status, 200);
      const lastOwner = await owner().session.json(`${path}/${owner().userId}`, {
        method: 'PATCH',
        json: { role: 'admin' },
      });
      assert.equal(lastOwner.status, 409);
      const removed = await team.members.admin.session.fetch(`${path}/${extra.userId}`, { method: 'DELETE' });
      assert.equal(removed.status, 204);

      const entries = await allEntries(owner().api);
      const role = one(entries, 'member.role_changed', extra.userId);
      assert.deepEqual({ type: role.actor.type, id: role.actor.id }, member(owner()));
      assert.equal(role.details?.from, 'viewer');
      assert.equal(role.details?.to, 'editor');
      assert.equal(role.details?.email, extra.email);
      assert.ok(!entries.some((e) => e.action === 'member.role_changed' && e.target.id === owner().userId));
      const gone = one(entries, 'member.removed', extra.userId);
      assert.deepEqual({ type: gone.actor.type, id: gone.actor.id }, member(team.members.admin));
      assert.equal(gone.details?.role, 'editor');
    });

    test('tokens revoked, webhooks created and deleted, accounts disconnected', async () => {
      const made = await owner().session.json('/api/v1/tokens', { json: { name: 'short-lived' } });
      assert.equal(made.status, 201);
      assert.equal(
        (await owner().session.fetch(`/api/v1/tokens/${made.body.id}`, { method: 'DELETE' })).status,
        204,
      );
      const hook = await team.members.admin.api.json('/api/v1/webhooks', {
        json: { url: 'http://127.0.0.1:9/hooks/s3cr3t-path?key=s3cr3t', events: ['post.failed'] },
      });
      assert.equal(hook.status, 201, JSON.stringify(hook.body));
      assert.equal(
        (await owner().api.fetch(`/api/v1/webhooks/${hook.body.id}`, { method: 'DELETE' })).status,
        204,
      );
      const other = await connectTelegram(owner().api, '@updates');
      assert.equal(
        (await team.members.admin.api.fetch(`/api/v1/accounts/${other}`, { method: 'DELETE' })).status,
        204,
      );

      const entries = await allEntries(owner().api);
      const revoked = one(entries, 'token.revoked', made.body.id);
      assert.equal(revoked.actor.id, owner().userId);
      assert.equal(revoked.details?.name, 'short-lived');
      assert.ok(!JSON.stringify(entries).includes(made.body.token));
      const created = one(entries, 'webhook.created', hook.body.id);
      assert.equal(created.actor.id, team.members.admin.userId);
      assert.deepEqual(created.details, { host: '127.0.0.1:9', events: ['post.failed'] });
      assert.equal(one(entries, 'webhook.deleted', hook.body.id).actor.id, owner().userId);
      assert.ok(!JSON.stringify(entries).includes('s3cr3t'), 'no secret from the URL');
      assert.ok(!JSON.stringify(entries).includes('whsec_'));
      const disconnected = one(entries, 'account.disconnected', other);
      assert.equal(disconnected.actor.id, team.members.admin.userId);
      assert.equal(disconnected.details?.platform, 'telegram');
    });

    test('filters: action, member, date range; bad values are 400 naming the field', async () => {
      const api = owner().api;
      const created = await allEntries(api, '&action=post.created');
      assert.ok(created.length >= 2);
      assert.ok(created.every((e) => e.action === 'post.created'));
      const byEditor = await allEntries(api, `&actorId=${team.members.editor.userId}`);
      assert.ok(byEditor.length >= 3);
      assert.ok(byEditor.every((e) => e.actor.id === team.members.editor.userId));
      const both = await allEntries(api, `&action=post.updated&actorId=${team.members.editor.userId}`);
      assert.equal(both.length, 1);
      const all = await allEntries(api);
      const middle = all[Math.floor(all.length / 2)]!;
      const since = await allEntries(api, `&from=${encodeURIComponent(middle.at)}`);
      assert.ok(since.length > 0 && since.length < all.length);
      assert.ok(since.every((e) => e.at >= middle.at));
      const until = await allEntries(api, `&to=${encodeURIComponent(middle.at)}`);
      assert.ok(until.every((e) => e.at < middle.at));
      assert.equal(since.length + until.length, all.length);
      const today = new Date().toISOString().slice(0, 10);
      assert.equal((await allEntries(api, `&from=${today}&to=${today}`)).length, all.length);
      assert.deepEqual(await allEntries(api, '&from=2100-01-01'), []);
      assert.deepEqual(await allEntries(api, '&action='), all, 'an empty filter is no filter');
      for (const [query, field] of [
        ['action=post.liked', 'action'],
        ['actorId=someone', 'actorId'],
        ['from=yesterday', 'from'],
        ['to=2026-13-45', 'to'],
        ['limit=0', 'limit'],
        ['limit=201', 'limit'],
        ['cursor=nonsense', undefined],
        ['from=2026-02-01&to=2026-01-01', 'from'],
      ] as const) {
        const res = await api.json(`/api/v1/audit?${query}`);
        assert.equal(res.status, 400, query);
        assert.equal(res.body.code, 'invalid_request', query);
        if (field) assert.match(JSON.stringify(res.body), new RegExp(field), query);
      }
    });

    test('keyset pages walk every entry once, newest first', async () => {
      const all = await allEntries(owner().api);
      const seen: Entry[] = [];
      let cursor: string | null = null;
      do {
        const q: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
        const res = await owner().api.json(`/api/v1/audit?limit=3${q}`);
        assert.equal(res.status, 200);
        assert.ok(res.body.entries.length <= 3);
        seen.push(...res.body.entries);
        cursor = res.body.nextCursor;
      } while (cursor);
      assert.deepEqual(
        seen.map((e) => e.id),
        all.map((e) => e.id),
      );
    });

    test('owners and admins read it; editors, contributors and viewers get 403 naming admin', async () => {
      assert.equal((await team.members.admin.session.json('/api/v1/audit')).status, 200);
      for (const role of ['editor', 'contributor', 'viewer'] as const) {
        assertForbidden(await team.members[role].api.json('/api/v1/audit'), 'admin');
        assertForbidden(await team.members[role].session.json('/api/v1/audit'), 'admin');
      }
    });

    test("one workspace's log never shows another's entries", async () => {
      const outsider = await verifiedPerson(env.app, `audit-${backend}-outsider`);
      const theirs = await currentWorkspace(outsider.session);
      const channel = await connectTelegram(outsider.session, '@news');
      const post = await outsider.session.json('/api/v1/posts', {
        json: { message: 'elsewhere', accountIds: [channel], postingMode: 'draft' },
      });
      assert.equal(post.status, 201);
      const mine = await allEntries(owner().api);
      const ids = new Set(mine.map((e) => e.target.id));
      assert.ok(!ids.has(channel) && !ids.has(post.body.id));
      assert.ok(!mine.some((e) => e.actor.id === outsider.userId));
      const their = await allEntries(outsider.session);
      assert.deepEqual(
        their.map((e) => e.action),
        ['post.created', 'account.connected'],
      );
      assert.ok(their.every((e) => !mine.some((m) => m.id === e.id)));
      // Filtering by a member of another workspace finds nothing of theirs here.
      assert.deepEqual(await allEntries(owner().api, `&actorId=${outsider.userId}`), []);
      assert.notEqual(theirs, team.workspaceId);
    });
  });
}
