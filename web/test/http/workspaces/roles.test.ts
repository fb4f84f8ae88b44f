import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { backends } from '../../helpers/databases.ts';
import { connectTelegram, startTelegramApp, type TelegramApp } from '../../helpers/fixtures.ts';
import { assertForbidden, buildTeam, type Role, roles, type Team } from './team.ts';

/** Every row of the role table (contract section G, docs/workspaces.md#roles), over HTTP. */

const inADay = () => new Date(Date.now() + 86_400_000).toISOString();

for (const backend of backends()) {
  describe(`workspace roles (${backend})`, () => {
    let env: TelegramApp;
    let team: Team;
    let news: string;
    let ownerDraft: string;
    before(async () => {
      env = await startTelegramApp(backend, { LOG_LEVEL: 'info' });
      team = await buildTeam(env.app, `roles-${backend}`);
      news = await connectTelegram(team.members.owner.api, '@news');
      const draft = await team.members.owner.api.json('/api/v1/posts', {
        json: { message: 'owner draft', accountIds: [news], postingMode: 'draft' },
      });
      ownerDraft = draft.body.id;
    });
    after(() => env?.stop());

    const api = (role: Role) => team.members[role].api;
    const draftBy = async (role: Role, message: string) => {
      const res = await api(role).json('/api/v1/posts', {
        json: { message, accountIds: [news], postingMode: 'draft' },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.id as string;
    };

    test('read posts, accounts and the timeline: every role', async () => {
      for (const role of roles) {
        assert.equal((await api(role).json('/api/v1/posts')).status, 200, role);
        assert.equal((await api(role).json(`/api/v1/posts/${ownerDraft}`)).status, 200, role);
        const accounts = await api(role).json('/api/v1/accounts');
        assert.deepEqual(
          accounts.body.accounts.map((a: { id: string }) => a.id),
          [news],
          role,
        );
        assert.equal((await api(role).json(`/api/v1/accounts/${news}/queue`)).status, 200, role);
        assert.equal(
          (await team.members[role].session.json(`/api/v1/workspaces/${team.workspaceId}/members`)).status,
          200,
        );
      }
    });

    test('create and edit drafts: owner, admin, editor; contributors their own posts only; not viewers', async () => {
      for (const role of ['owner', 'admin', 'editor'] as const) {
        await draftBy(role, `draft by ${role}`);
        const edited = await api(role).json(`/api/v1/posts/${ownerDraft}`, {
          method: 'PATCH',
          json: { message: `edited by ${role}` },
        });
        assert.equal(edited.status, 200, role);
      }
      const own = await draftBy('contributor', 'contributor draft');
      const editOwn = await api('contributor').json(`/api/v1/posts/${own}`, {
        method: 'PATCH',
        json: { message: 'mine, edited' },
      });
      assert.equal(editOwn.status, 200);
      assertForbidden(
        await api('contributor').json(`/api/v1/posts/${ownerDraft}`, {
          method: 'PATCH',
          json: { message: 'not mine' },
        }),
        'editor',
      );
      assertForbidden(
        await api('viewer').json('/api/v1/posts', {
          json: { message: 'no', accountIds: [news], postingMode: 'draft' },
        }),
        'contributor',
      );
      assertForbidden(
        await api('viewer').json(`/api/v1/posts/${own}`, { method: 'PATCH', json: { message: 'x' } }),
        'contributor',
      );
      // Comments are the same row: any post for owners, admins and editors, their own for contributors.
      const comment = (role: Role, post: string) =>
        api(role).json(`/api/v1/posts/${post}/comments`, { json: { body: `comment by ${role}` } });
      for (const role of ['owner', 'admin', 'editor'] as const)
        assert.equal((await comment(role, ownerDraft)).status, 201, role);
      assert.equal((await comment('contributor', own)).status, 201);
      assertForbidden(await comment('contributor', ownerDraft), 'editor');
      assertForbidden(await comment('viewer', own), 'contributor');
      for (const role of roles)
        assert.equal((await api(role).json(`/api/v1/posts/${ownerDraft}/comments`)).status, 200, role);
    });

    test('publish now, schedule, queue and delete posts: owner, admin, editor; contributors submit only; not viewers', async () => {
      for (const role of ['owner', 'admin', 'editor'] as const) {
        const scheduled = await api(role).json('/api/v1/posts', {
          json: {
            message: `scheduled by ${role}`,
            accountIds: [news],
            postingMode: 'schedule',
            scheduledAt: inADay(),
          },
        });
        assert.equal(scheduled.status, 201, role);
        assert.equal(scheduled.body.status, 'scheduled');
        const gone = await api(role).fetch(`/api/v1/posts/${await draftBy(role, `to delete ${role}`)}`, {
          method: 'DELETE',
        });
        assert.equal(gone.status, 204, role);
      }
      const own = await draftBy('contributor', 'contributor wants it out');
      // Contributors submit for approval (approvals.test.ts has the rest): 202, nothing published.
      const submitted = await api('contributor').json('/api/v1/posts', {
        json: { message: 'now', accountIds: [news], postingMode: 'now' },
      });
      assert.equal(submitted.status, 202);
      assert.equal(submitted.body.status, 'pending_approval');
      assertForbidden(
        await api('viewer').json('/api/v1/posts', {
          json: { message: 'now', accountIds: [news], postingMode: 'now' },
        }),
        'contributor',
      );
      assertForbidden(
        await api('viewer').json(`/api/v1/posts/${own}`, {
          json: { postingMode: 'schedule', scheduledAt: inADay() },
        }),
        'contributor',
      );
      for (const role of ['contributor', 'viewer'] as const) {
        assertForbidden(await api(role).json(`/api/v1/posts/${own}`, { method: 'DELETE' }), 'editor');
      }
      assert.equal(env.telegram.sent.length, 0, 'nothing was published');
    });

    test('accounts, queues, feeds, webhooks, settings and the audit log: owner and admin only', async () => {
      for (const role of ['owner', 'admin'] as const) {
        const renamed = await api(role).json(`/api/v1/accounts/${news}`, {
          method: 'PATCH',
          json: { label: `News (${role})` },
        });
        assert.equal(renamed.status, 200, role);
        const queue = await api(role).json(`/api/v1/accounts/${news}/queue`, {
          method: 'PUT',
          json: { timezone: 'UTC', slots: [{ weekday: 1, time: '09:00' }] },
        });
        assert.equal(queue.status, 200, JSON.stringify(queue.body));
        const settings = await api(role).json(`/api/v1/workspaces/${team.workspaceId}`, {
          method: 'PATCH',
          json: { settings: { timezone: 'Europe/Berlin' } },
        });
        assert.equal(settings.status, 200, role);
        assert.equal(settings.body.settings.timezone, 'Europe/Berlin');
        assert.equal((await api(role).json('/api/v1/webhooks')).status, 200, role);
        assert.equal((await api(role).json('/api/v1/audit')).status, 200, role);
      }
      for (const role of ['editor', 'contributor', 'viewer'] as const) {
        assertForbidden(
          await api(role).json(`/api/v1/accounts/${news}`, { method: 'PATCH', json: { label: 'x' } }),
          'admin',
        );
        assertForbidden(
          await api(role).json(`/api/v1/accounts/${news}/queue`, {
            method: 'PUT',
            json: { timezone: 'UTC', slots: [] },
          }),
          'admin',
        );
        assertForbidden(await api(role).json(`/api/v1/accounts/${news}`, { method: 'DELETE' }), 'admin');
        assertForbidden(
          await api(role).json('/api/v1/feeds', {
            json: { url: 'https://example.com/feed.xml', accountIds: [news], mode: 'draft' },
          }),
          'admin',
        );
        assertForbidden(await api(role).json('/api/v1/webhooks'), 'admin');
        assertForbidden(await api(role).json('/api/v1/audit'), 'admin');
        assertForbidden(
          await api(role).json('/api/v1/webhooks', {
            json: { url: 'https://example.com/hook', events: ['post.published'] },
          }),
          'admin',
        );
        assertForbidden(
          await api(role).json(`/api/v1/workspaces/${team.workspaceId}`, {
            method: 'PATCH',
            json: { name: 'mine now' },
          }),
          'admin',
        );
        assertForbidden(
          await team.members[role].session.json('/api/v1/mcp-clients/settings', {
            method: 'PUT',
            json: { assistantsMustConfirm: true },
          }),
          'admin',
        );
      }
    });

    test('members and invitations: owner and admin (admins not owners); not editors and below', async () => {
      const path = `/api/v1/workspaces/${team.workspaceId}`;
      for (const role of ['owner', 'admin'] as const) {
        const invited = await api(role).json(`${path}/invitations`, {
          json: { email: `guest-${role}@example.com`, role: 'viewer' },
        });
        assert.equal(invited.status, 201, role);
        assert.equal((await api(role).json(`${path}/invitations`)).status, 200);
        assert.equal(
          (await api(role).fetch(`${path}/invitations/${invited.body.id}`, { method: 'DELETE' })).status,
          204,
        );
      }
      const editorId = team.members.editor.userId;
      const demoted = await api('admin').json(`${path}/members/${editorId}`, {
        method: 'PATCH',
        json: { role: 'viewer' },
      });
      assert.equal(demoted.status, 200);
      assert.equal(demoted.body.role, 'viewer');
      assert.equal(
        (
          await api('admin').json(`${path}/members/${editorId}`, {
            method: 'PATCH',
            json: { role: 'editor' },
          })
        ).status,
        200,
      );
      const ownerId = team.members.owner.userId;
      assertForbidden(
        await api('admin').json(`${path}/members/${ownerId}`, { method: 'PATCH', json: { role: 'admin' } }),
        'owner',
      );
      assertForbidden(await api('admin').json(`${path}/members/${ownerId}`, { method: 'DELETE' }), 'owner');
      assertForbidden(
        await api('admin').json(`${path}/members/${editorId}`, { method: 'PATCH', json: { role: 'owner' } }),
        'owner',
      );
      assertForbidden(
        await api('admin').json(`${path}/invitations`, {
          json: { email: 'boss@example.com', role: 'owner' },
        }),
        'owner',
      );
      for (const role of ['editor', 'contributor', 'viewer'] as const) {
        assertForbidden(
          await api(role).json(`${path}/invitations`, { json: { email: 'x@example.com', role: 'viewer' } }),
          'admin',
        );
        assertForbidden(await api(role).json(`${path}/invitations`), 'admin');
        assertForbidden(
          await api(role).json(`${path}/members/${editorId}`, { method: 'PATCH', json: { role: 'viewer' } }),
          'admin',
        );
        // Removing someone else (leaving, their own id, is open to every member: members.test.ts).
        assertForbidden(await api(role).json(`${path}/members/${ownerId}`, { method: 'DELETE' }), 'admin');
      }
      const last = await api('owner').json(`${path}/members/${ownerId}`, {
        method: 'PATCH',
        json: { role: 'admin' },
      });
      assert.equal(last.status, 409);
      assert.equal(last.body.code, 'last_owner');
      const leave = await api('owner').json(`${path}/members/${ownerId}`, { method: 'DELETE' });
      assert.equal(leave.status, 409);
      assert.equal(leave.body.code, 'last_owner');
    });

    test('delete the workspace: owners only', async () => {
      for (const role of ['admin', 'editor', 'contributor', 'viewer'] as const)
        assertForbidden(
          await api(role).json(`/api/v1/workspaces/${team.workspaceId}`, { method: 'DELETE' }),
          'owner',
        );
      const other = await team.members.owner.session.json('/api/v1/workspaces', {
        json: { name: 'Short-lived' },
      });
      assert.equal(other.status, 201);
      assert.equal(other.body.role, 'owner');
      const gone = await team.members.owner.session.fetch(`/api/v1/workspaces/${other.body.id}`, {
        method: 'DELETE',
      });
      assert.equal(gone.status, 204);
      assert.equal(
        (await team.members.owner.session.json(`/api/v1/workspaces/${other.body.id}`)).status,
        404,
      );
    });
  });
}
