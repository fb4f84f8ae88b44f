import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { backends } from '../../helpers/databases.ts';
import { connectTelegram, startTelegramApp, type TelegramApp } from '../../helpers/fixtures.ts';
import {
  assertForbidden,
  buildTeam,
  currentWorkspace,
  type Role,
  type Team,
  verifiedPerson,
} from './team.ts';

/**
 * Comments on posts over HTTP (contract section G, docs/workspaces.md#comments): who may
 * comment (the role table's "create and edit drafts, comment" row), the body's limits, the
 * listing oldest first, and another workspace's post answering 404.
 */
for (const backend of backends()) {
  describe(`post comments (${backend})`, () => {
    let env: TelegramApp;
    let team: Team;
    let news: string;
    let ownerPost: string;
    let contributorPost: string;
    const api = (role: Role) => team.members[role].api;
    const comment = (role: Role, post: string, body: unknown) =>
      api(role).json(`/api/v1/posts/${post}/comments`, { json: { body } });

    before(async () => {
      env = await startTelegramApp(backend, { LOG_LEVEL: 'info' });
      team = await buildTeam(env.app, `comments-${backend}`);
      news = await connectTelegram(api('owner'), '@news');
      const draft = async (role: Role) =>
        (
          await api(role).json('/api/v1/posts', {
            json: { message: `draft by ${role}`, accountIds: [news], postingMode: 'draft' },
          })
        ).body.id as string;
      ownerPost = await draft('owner');
      contributorPost = await draft('contributor');
    });
    after(() => env?.stop());

    test('owners, admins and editors comment on any post; the answer names the member', async () => {
      for (const role of ['owner', 'admin', 'editor'] as const) {
        const res = await comment(role, ownerPost, `  looks good to the ${role}  `);
        assert.equal(res.status, 201, JSON.stringify(res.body));
        assert.deepEqual(Object.keys(res.body).sort(), ['author', 'body', 'createdAt', 'id']);
        assert.deepEqual(res.body.author, {
          type: 'member',
          id: team.members[role].userId,
          name: `comments-${backend}-${role}`,
        });
        assert.equal(res.body.body, `looks good to the ${role}`);
        assert.ok(!Number.isNaN(Date.parse(res.body.createdAt)));
      }
    });

    test('contributors comment on their own posts only; viewers not at all', async () => {
      assert.equal((await comment('contributor', contributorPost, 'my own')).status, 201);
      assertForbidden(await comment('contributor', ownerPost, 'not mine'), 'editor');
      assertForbidden(await comment('viewer', ownerPost, 'just looking'), 'contributor');
      assertForbidden(await comment('viewer', contributorPost, 'just looking'), 'contributor');
      // A contributor's post is open to comments from editors and up.
      assert.equal((await comment('editor', contributorPost, 'nice one')).status, 201);
    });

    test('everyone reads the comments, oldest first', async () => {
      for (const role of ['owner', 'contributor', 'viewer'] as const) {
        const res = await api(role).json(`/api/v1/posts/${ownerPost}/comments`);
        assert.equal(res.status, 200, role);
        assert.deepEqual(
          res.body.comments.map((c: { body: string }) => c.body),
          ['looks good to the owner', 'looks good to the admin', 'looks good to the editor'],
        );
      }
      const theirs = await api('viewer').json(`/api/v1/posts/${contributorPost}/comments`);
      assert.deepEqual(
        theirs.body.comments.map((c: { author: { id: string } }) => c.author.id),
        [team.members.contributor.userId, team.members.editor.userId],
      );
    });

    test('the body: 1 to 5000 characters (422 naming body), a string (400)', async () => {
      for (const body of ['', '   ', 'x'.repeat(5001), undefined]) {
        const res = await comment('owner', ownerPost, body);
        assert.equal(res.status, 422, String(body?.length));
        assert.equal(res.body.code, 'validation_failed');
        assert.equal(res.body.errors[0].path, 'body');
      }
      assert.equal((await comment('owner', ownerPost, 'é'.repeat(5000))).status, 201);
      assert.equal((await comment('owner', ownerPost, 42)).status, 400);
      const malformed = await api('owner').fetch(`/api/v1/posts/${ownerPost}/comments`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"body":',
      });
      assert.equal(malformed.status, 400);
      const nul = await comment('owner', ownerPost, 'a\u0000b');
      assert.equal(nul.status, 400);
    });

    test("another workspace's post, a missing one and a malformed id: 404", async () => {
      const outsider = await verifiedPerson(env.app, `comments-${backend}-outsider`);
      await currentWorkspace(outsider.session);
      const channel = await connectTelegram(outsider.session, '@news');
      const theirs = await outsider.session.json('/api/v1/posts', {
        json: { message: 'elsewhere', accountIds: [channel], postingMode: 'draft' },
      });
      for (const id of [theirs.body.id, crypto.randomUUID(), 'not-a-uuid']) {
        const read = await api('owner').json(`/api/v1/posts/${id}/comments`);
        assert.equal(read.status, 404, id);
        assert.equal(read.body.code, 'not_found');
        assert.equal((await comment('owner', id, 'hello?')).status, 404, id);
      }
      // And the other way round: their comment stays theirs.
      const own = await outsider.session.json(`/api/v1/posts/${theirs.body.id}/comments`, {
        json: { body: 'mine' },
      });
      assert.equal(own.status, 201);
      assert.equal((await outsider.session.json(`/api/v1/posts/${ownerPost}/comments`)).status, 404);
    });

    test('comments go with their post', async () => {
      assert.equal(
        (await api('owner').fetch(`/api/v1/posts/${contributorPost}`, { method: 'DELETE' })).status,
        204,
      );
      assert.equal((await api('owner').json(`/api/v1/posts/${contributorPost}/comments`)).status, 404);
    });
  });
}
