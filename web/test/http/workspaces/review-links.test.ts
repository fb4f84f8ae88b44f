import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client, userWithToken } from '../../helpers/client.ts';
import { backends } from '../../helpers/databases.ts';
import { connectTelegram, startTelegramApp, type TelegramApp } from '../../helpers/fixtures.ts';
import { assertForbidden, buildTeam, type Team } from './team.ts';

/**
 * Client review links over HTTP (docs/workspaces.md#review-links): created by approvers, listed
 * without tokens, revoked; a client without an account previews, comments, and approves (which
 * publishes once) or requests changes; 404 for unknown and revoked links; rate-limited.
 * Expiry: test/server/review/expiry.test.ts.
 */

const tokenOf = (url: string) => decodeURIComponent(new URL(url).pathname.split('/').pop()!);

for (const backend of backends()) {
  describe(`review links (${backend})`, () => {
    let env: TelegramApp;
    let team: Team;
    let news: string;
    before(async () => {
      env = await startTelegramApp(backend, { LOG_LEVEL: 'info' });
      team = await buildTeam(env.app, `review-${backend}`);
      news = await connectTelegram(team.members.owner.api, '@news');
    });
    after(() => env?.stop());

    const submitNow = async (message: string) => {
      const res = await team.members.contributor.api.json('/api/v1/posts', {
        json: { message, accountIds: [news], postingMode: 'now' },
      });
      assert.equal(res.status, 202, JSON.stringify(res.body));
      return res.body.id as string;
    };
    const link = async (postId: string, body: Record<string, unknown> = {}) => {
      const res = await team.members.owner.api.json(`/api/v1/posts/${postId}/review-links`, { json: body });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body as { id: string; url: string; expiresAt: string };
    };

    test('lifecycle: create, list without tokens, preview and comment without an account, approve publishes once', async () => {
      const postId = await submitNow('client approves this');
      for (const role of ['contributor', 'viewer'] as const)
        assertForbidden(
          await team.members[role].api.json(`/api/v1/posts/${postId}/review-links`, { json: {} }),
          'editor',
        );
      const tooLong = await team.members.owner.api.json(`/api/v1/posts/${postId}/review-links`, {
        json: { expiresInHours: 721 },
      });
      assert.equal(tooLong.status, 422);
      assert.equal(tooLong.body.errors[0].path, 'expiresInHours');
      // A wrong type is 400, as on every other endpoint (contract B).
      for (const json of [{ expiresInHours: '5' }, { allowDecision: 'no' }]) {
        const wrong = await team.members.owner.api.json(`/api/v1/posts/${postId}/review-links`, { json });
        assert.equal(wrong.status, 400, JSON.stringify(json));
        assert.equal(wrong.body.code, 'invalid_request');
      }

      const created = await link(postId);
      const token = tokenOf(created.url);
      assert.match(token, /^pwr_[A-Za-z0-9_-]{43}$/);
      assert.ok(created.url.startsWith(`${env.app.url}/review/`));
      const hours = (new Date(created.expiresAt).getTime() - Date.now()) / 3_600_000;
      assert.ok(hours > 167 && hours <= 168, `default 168 hours, got ${hours}`);

      const listed = await team.members.viewer.api.json(`/api/v1/posts/${postId}/review-links`);
      assert.equal(listed.status, 200);
      assert.equal(listed.body.links.length, 1);
      assert.equal(listed.body.links[0].state, 'active');
      assert.ok(!JSON.stringify(listed.body).includes(token), 'never the token');

      const client = new Client(env.app.url);
      const page = await client.json(`/api/v1/review/${token}`);
      assert.equal(page.status, 200, JSON.stringify(page.body));
      assert.equal(page.body.post.versions.length, 1);
      assert.equal(page.body.post.versions[0].message, 'client approves this');
      assert.equal(page.body.post.versions[0].account.platform, 'telegram');
      assert.equal(page.body.canDecide, true);
      const text = JSON.stringify(page.body);
      for (const secret of ['results', 'credentials', 'botToken', team.members.contributor.email])
        assert.ok(!text.includes(secret), secret);

      const noName = await client.json(`/api/v1/review/${token}/comments`, { json: { body: 'hi' } });
      assert.equal(noName.status, 422);
      assert.equal(noName.body.errors[0].path, 'name');
      const numberName = await client.json(`/api/v1/review/${token}/comments`, {
        json: { name: 5, body: 'x' },
      });
      assert.equal(numberName.status, 400);
      const badDecision = await client.json(`/api/v1/review/${token}/decision`, {
        json: { name: 'Client Carla', decision: 1 },
      });
      assert.equal(badDecision.status, 400);
      const comment = await client.json(`/api/v1/review/${token}/comments`, {
        json: { name: 'Client Carla', body: 'Looks good to me' },
      });
      assert.equal(comment.status, 201, JSON.stringify(comment.body));
      assert.deepEqual(comment.body.author, { type: 'reviewer', name: 'Client Carla' });
      const again = await client.json(`/api/v1/review/${token}`);
      assert.equal(again.body.comments.length, 1);
      assert.equal(again.body.comments[0].body, 'Looks good to me');

      const rejectBare = await client.json(`/api/v1/review/${token}/decision`, {
        json: { name: 'Client Carla', decision: 'reject' },
      });
      assert.equal(rejectBare.status, 422);
      assert.equal(rejectBare.body.errors[0].path, 'comment');
      const [a, b] = await Promise.all(
        [0, 1].map(() =>
          client.json(`/api/v1/review/${token}/decision`, {
            json: { name: 'Client Carla', decision: 'approve' },
          }),
        ),
      );
      assert.deepEqual([a!.status, b!.status].sort(), [200, 409]);
      assert.equal((a!.status === 200 ? a : b)!.body.status, 'posted');
      assert.equal(env.telegram.sent.filter((m) => m.text === 'client approves this').length, 1);
      const post = await team.members.owner.api.json(`/api/v1/posts/${postId}`);
      assert.equal(post.body.status, 'posted');
      assert.deepEqual(post.body.approval.approved.by, { type: 'reviewer', name: 'Client Carla' });
      const events = await team.members.owner.api.json(`/api/v1/posts/${postId}/events`);
      const approved = events.body.events.find((e: { type: string }) => e.type === 'approved');
      assert.equal(approved.actor.type, 'reviewer');
      assert.equal(approved.actor.name, 'Client Carla');
    });

    test('request changes; comments-only links; revoke; unknown and foreign links are 404', async () => {
      const postId = await submitNow('client wants changes');
      const created = await link(postId);
      const client = new Client(env.app.url);
      const rejected = await client.json(`/api/v1/review/${tokenOf(created.url)}/decision`, {
        json: { name: 'Client Carl', decision: 'reject', comment: 'Mention the date' },
      });
      assert.equal(rejected.status, 200, JSON.stringify(rejected.body));
      assert.equal(rejected.body.status, 'draft');
      const post = await team.members.contributor.api.json(`/api/v1/posts/${postId}`);
      assert.equal(post.body.approval.rejected.comment, 'Mention the date');

      const otherId = await submitNow('comments only');
      const readOnly = await link(otherId, { allowDecision: false, expiresInHours: 2 });
      const view = await client.json(`/api/v1/review/${tokenOf(readOnly.url)}`);
      assert.equal(view.body.allowDecision, false);
      assert.equal(view.body.canDecide, false);
      const refused = await client.json(`/api/v1/review/${tokenOf(readOnly.url)}/decision`, {
        json: { name: 'X', decision: 'approve' },
      });
      assert.equal(refused.status, 409);

      const gone = await team.members.owner.api.fetch(
        `/api/v1/posts/${otherId}/review-links/${readOnly.id}`,
        {
          method: 'DELETE',
        },
      );
      assert.equal(gone.status, 204);
      assert.equal((await client.json(`/api/v1/review/${tokenOf(readOnly.url)}`)).status, 404);
      const again = await team.members.owner.api.fetch(
        `/api/v1/posts/${otherId}/review-links/${readOnly.id}`,
        {
          method: 'DELETE',
        },
      );
      assert.equal(again.status, 404);
      const listed = await team.members.owner.api.json(`/api/v1/posts/${otherId}/review-links`);
      assert.equal(listed.body.links[0].state, 'revoked');

      assert.equal((await client.json('/api/v1/review/pwr_unknown')).status, 404);
      assert.equal((await client.json('/api/v1/review/nonsense')).status, 404);
      const outsider = await userWithToken(env.app.url, 'outsider');
      assert.equal((await outsider.api.json(`/api/v1/posts/${otherId}/review-links`)).status, 404);
      assert.equal(
        (await outsider.api.json(`/api/v1/posts/${otherId}/review-links`, { json: {} })).status,
        404,
      );
    });

    test('rate limit: more than 30 requests a minute for one link answer 429', async () => {
      const created = await link(await submitNow('popular link'));
      const client = new Client(env.app.url);
      const statuses: number[] = [];
      for (let i = 0; i < 31; i++)
        statuses.push((await client.fetch(`/api/v1/review/${tokenOf(created.url)}`)).status);
      assert.deepEqual(statuses.slice(0, 30), Array(30).fill(200));
      assert.equal(statuses[30], 429);
    });
  });
}
