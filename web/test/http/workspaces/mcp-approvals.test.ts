import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { backends } from '../../helpers/databases.ts';
import { connectTelegram, startTelegramApp, type TelegramApp } from '../../helpers/fixtures.ts';
import { connect } from '../../helpers/oauth.ts';
import { buildTeam, type Team } from './team.ts';

/**
 * Assistants act with the role of the member who granted them (docs/workspaces.md#approvals): a
 * contributor's assistant submits (pending_approval, the tool's 202), an editor's approves.
 */

// biome-ignore lint/suspicious/noExplicitAny: tool results are checked field by field
type Json = any;

for (const backend of backends()) {
  describe(`MCP and approvals (${backend})`, () => {
    let env: TelegramApp;
    let team: Team;
    let news: string;
    before(async () => {
      env = await startTelegramApp(backend, { LOG_LEVEL: 'info' });
      team = await buildTeam(env.app, `mcpappr-${backend}`);
      news = await connectTelegram(team.members.owner.api, '@news');
    });
    after(() => env?.stop());

    test("a contributor's assistant submits; a contributor's may not approve; an editor's approves once", async () => {
      const { client: contributor } = await connect(env.app.url, team.members.contributor.session);
      const created = (await contributor.callTool({
        name: 'create_post',
        arguments: { message: 'assistant draft for approval', accountIds: [news], postingMode: 'now' },
      })) as Json;
      assert.equal(created.isError, undefined, JSON.stringify(created));
      assert.equal(created.structuredContent.outcome, 'approval_required');
      assert.equal(created.structuredContent.status, 202);
      const post = created.structuredContent.post;
      assert.equal(post.status, 'pending_approval');
      assert.equal(post.approval.reason, 'approvals');
      assert.equal(post.approval.requestedBy.type, 'assistant');
      assert.equal(post.approval.requestedBy.id, team.members.contributor.userId);
      assert.equal(env.telegram.sent.length, 0);

      // A stored draft through publish_post: submitted as well.
      const draft = await team.members.contributor.api.json('/api/v1/posts', {
        json: { message: 'contributor draft', accountIds: [news], postingMode: 'draft' },
      });
      const published = (await contributor.callTool({
        name: 'publish_post',
        arguments: { id: draft.body.id },
      })) as Json;
      assert.equal(published.structuredContent.post.status, 'pending_approval', JSON.stringify(published));

      const denied = (await contributor.callTool({
        name: 'approve_post',
        arguments: { id: post.id },
      })) as Json;
      assert.equal(denied.isError, true);
      assert.equal(denied.structuredContent.error.code, 'forbidden');
      assert.equal(denied.structuredContent.error.requiredRole, 'editor');

      const { client: editor } = await connect(env.app.url, team.members.editor.session);
      const noComment = (await editor.callTool({
        name: 'reject_post',
        arguments: { id: draft.body.id, comment: ' ' },
      })) as Json;
      assert.equal(noComment.isError, true);
      assert.equal(noComment.structuredContent.error.code, 'validation_failed');
      const rejected = (await editor.callTool({
        name: 'reject_post',
        arguments: { id: draft.body.id, comment: 'not yet' },
      })) as Json;
      assert.equal(rejected.structuredContent.status, 'draft', JSON.stringify(rejected));
      assert.equal(rejected.structuredContent.approval.rejected.by.type, 'assistant');

      const approved = (await editor.callTool({ name: 'approve_post', arguments: { id: post.id } })) as Json;
      assert.equal(approved.isError, undefined, JSON.stringify(approved));
      assert.equal(approved.structuredContent.status, 'posted');
      const again = (await editor.callTool({ name: 'approve_post', arguments: { id: post.id } })) as Json;
      assert.equal(again.isError, true);
      assert.equal(env.telegram.sent.filter((m) => m.text === 'assistant draft for approval').length, 1);
    });
  });
}
