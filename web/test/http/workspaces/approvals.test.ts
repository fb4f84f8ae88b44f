import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startWebhookReceiver, type WebhookReceiver } from '@postwave/shared/testing';
import { Client } from '../../helpers/client.ts';
import { backends } from '../../helpers/databases.ts';
import { connectTelegram, startTelegramApp, type TelegramApp } from '../../helpers/fixtures.ts';
import { type MailCapture, startMailCapture } from '../../helpers/mail-capture.ts';
import { assertForbidden, buildTeam, type Role, type Team } from './team.ts';

/**
 * Approvals (contract section G, docs/workspaces.md#approvals) over HTTP: who submits, who
 * approves and rejects, 202, the requested action performed once (also under a race), e-mails,
 * webhook events and the timeline.
 */

const inADay = () => new Date(Date.now() + 86_400_000).toISOString();

for (const backend of backends()) {
  describe(`approvals (${backend})`, () => {
    let env: TelegramApp;
    let mail: MailCapture;
    let team: Team;
    let news: string;
    let webhookId: string;
    let receiver: WebhookReceiver;
    before(async () => {
      mail = await startMailCapture();
      receiver = await startWebhookReceiver();
      env = await startTelegramApp(backend, {
        LOG_LEVEL: 'info',
        SMTP_URL: mail.url,
        ALLOW_PRIVATE_HOSTS: new URL(receiver.url).host,
      });
      team = await buildTeam(env.app, `appr-${backend}`, mail);
      news = await connectTelegram(team.members.owner.api, '@news');
      const hook = await team.members.owner.api.json('/api/v1/webhooks', {
        json: {
          url: receiver.url,
          events: ['post.submitted', 'post.approved', 'post.rejected'],
        },
      });
      assert.equal(hook.status, 201, JSON.stringify(hook.body));
      webhookId = hook.body.id;
    });
    after(async () => {
      await env?.stop();
      await mail?.close();
      await receiver?.close();
    });

    const api = (role: Role) => team.members[role].api;
    const setApprovals = async (approvals: 'off' | 'contributors' | 'everyone') => {
      const res = await api('owner').json(`/api/v1/workspaces/${team.workspaceId}`, {
        method: 'PATCH',
        json: { settings: { approvals } },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    };
    /** A post submitted by `role` (a contributor unless said): 202, waiting for approval. */
    const submit = async (
      message: string,
      role: Role = 'contributor',
      extra: Record<string, unknown> = {},
    ) => {
      const res = await api(role).json('/api/v1/posts', {
        json: { message, accountIds: [news], postingMode: 'schedule', scheduledAt: inADay(), ...extra },
      });
      assert.equal(res.status, 202, JSON.stringify(res.body));
      assert.equal(res.body.status, 'pending_approval');
      return res.body as {
        id: string;
        approval: {
          requested: { postingMode: string; scheduledAt?: string };
          requestedBy: { id: string; type: string };
          requestedAt: string;
        };
      };
    };
    const sentTexts = (text: string) => env.telegram.sent.filter((m) => m.text === text);
    /** The audit log's actions about one post, newest first. */
    const auditOf = async (postId: string) =>
      (await api('owner').json('/api/v1/audit?limit=200')).body.entries
        .filter((e: { target: { id: string } }) => e.target.id === postId)
        .map((e: { action: string }) => e.action);

    test('submit: contributors get 202 and pending_approval; editors and up publish; viewers may not', async () => {
      const post = await submit('contributor wants it scheduled');
      assert.equal(post.approval.requested.postingMode, 'schedule');
      assert.ok(post.approval.requested.scheduledAt);
      assert.equal(post.approval.requestedBy.id, team.members.contributor.userId);
      assert.equal(post.approval.requestedBy.type, 'member');
      assert.ok(post.approval.requestedAt);
      // The audit log has the post stored and submitted (newest first), as for a draft submitted later.
      assert.deepEqual(await auditOf(post.id), ['post.submitted', 'post.created']);

      const now = await api('contributor').json('/api/v1/posts', {
        json: { message: 'contributor wants it now', accountIds: [news], postingMode: 'now' },
      });
      assert.equal(now.status, 202);
      assert.equal(now.body.approval.requested.postingMode, 'now');
      const queued = await api('contributor').json('/api/v1/posts', {
        json: { message: 'contributor wants it queued', accountIds: [news], postingMode: 'queue' },
      });
      assert.equal(queued.status, 202);
      assert.equal(queued.body.approval.requested.postingMode, 'queue');
      assert.equal(sentTexts('contributor wants it now').length, 0, 'nothing published before approval');

      for (const role of ['owner', 'admin', 'editor'] as const) {
        const res = await api(role).json('/api/v1/posts', {
          json: {
            message: `${role} schedules`,
            accountIds: [news],
            postingMode: 'schedule',
            scheduledAt: inADay(),
          },
        });
        assert.equal(res.status, 201, role);
        assert.equal(res.body.status, 'scheduled');
        assert.equal(res.body.approval, null);
      }
      assertForbidden(
        await api('viewer').json('/api/v1/posts', {
          json: { message: 'no', accountIds: [news], postingMode: 'now' },
        }),
        'contributor',
      );

      // A stored draft submitted through POST /posts/{id}.
      const draft = await api('contributor').json('/api/v1/posts', {
        json: { message: 'draft first', accountIds: [news], postingMode: 'draft' },
      });
      const submitted = await api('contributor').json(`/api/v1/posts/${draft.body.id}`, {
        json: { postingMode: 'schedule', scheduledAt: inADay() },
      });
      assert.equal(submitted.status, 202, JSON.stringify(submitted.body));
      assert.equal(submitted.body.status, 'pending_approval');

      const pending = await api('viewer').json('/api/v1/posts?status=pending_approval');
      assert.equal(pending.status, 200);
      const ids = pending.body.posts.map((p: { id: string }) => p.id);
      assert.ok(ids.includes(post.id) && ids.includes(draft.body.id));
      assert.ok(pending.body.posts.every((p: { status: string }) => p.status === 'pending_approval'));
    });

    test('the Posts page has a tab for posts waiting for approval; an unknown status shows the first tab', async () => {
      const post = await submit('waiting on the posts page');
      const page = await team.members.owner.session.fetch('/posts?status=pending_approval');
      assert.equal(page.status, 200);
      const html = await page.text();
      assert.match(html, /aria-current="page"[^>]*>Waiting for approval</);
      assert.ok(html.includes(`/posts/${post.id}`), 'the pending post is listed');
      assert.ok(html.includes('waiting on the posts page'));

      for (const status of ['nonsense', 'publishing', '']) {
        const other = await team.members.contributor.session.fetch(`/posts?status=${status}`);
        assert.equal(other.status, 200, status);
        assert.match(await other.text(), /aria-current="page"[^>]*>Scheduled</, status);
      }
    });

    test('the approvals setting: "everyone" makes owners submit too; under "off" contributors still submit', async () => {
      await setApprovals('everyone');
      try {
        const own = await submit('owner under everyone', 'owner');
        const self = await api('owner').json(`/api/v1/posts/${own.id}/approve`, { json: {} });
        assert.equal(self.status, 403);
        assert.equal(self.body.code, 'self_approval');
        const approved = await api('admin').json(`/api/v1/posts/${own.id}/approve`, { json: {} });
        assert.equal(approved.status, 200, JSON.stringify(approved.body));
        assert.equal(approved.body.status, 'scheduled');
      } finally {
        await setApprovals('off');
      }
      try {
        // Contributors always submit (contract G: "contributors always"), whatever the setting.
        const submitted = await api('contributor').json('/api/v1/posts', {
          json: { message: 'off', accountIds: [news], postingMode: 'schedule', scheduledAt: inADay() },
        });
        assert.equal(submitted.status, 202, JSON.stringify(submitted.body));
        assert.equal(submitted.body.status, 'pending_approval');
        const direct = await api('editor').json('/api/v1/posts', {
          json: {
            message: 'off, editor',
            accountIds: [news],
            postingMode: 'schedule',
            scheduledAt: inADay(),
          },
        });
        assert.equal(direct.status, 201, JSON.stringify(direct.body));
        assert.equal(direct.body.status, 'scheduled');
        const draft = await api('contributor').json('/api/v1/posts', {
          json: { message: 'still drafts', accountIds: [news], postingMode: 'draft' },
        });
        assert.equal(draft.status, 201);
      } finally {
        await setApprovals('contributors');
      }
    });

    test('an import follows the same rules: a contributor’s scheduled rows are submissions, drafts stay drafts', async () => {
      const file = (label: string) =>
        [
          'message,accounts,scheduledAt,postingMode',
          `${label} scheduled,${news},${inADay()},schedule`,
          `${label} draft,${news},,draft`,
        ].join('\r\n');
      const importAs = (role: Role, body: string) =>
        api(role).json('/api/v1/posts/import?dryRun=false', {
          method: 'POST',
          headers: { 'content-type': 'text/csv' },
          body,
        });
      const statusOf = async (role: Role, id: string) => (await api(role).json(`/api/v1/posts/${id}`)).body;

      const byContributor = await importAs('contributor', file('imported by a contributor'));
      assert.equal(byContributor.status, 200, JSON.stringify(byContributor.body));
      assert.equal(byContributor.body.committed, true);
      const [scheduledRow, draftRow] = byContributor.body.rows;
      const submitted = await statusOf('contributor', scheduledRow.postId);
      assert.equal(submitted.status, 'pending_approval');
      assert.equal(submitted.approval.requested.postingMode, 'schedule');
      assert.ok(submitted.approval.requested.scheduledAt);
      assert.equal((await statusOf('contributor', draftRow.postId)).status, 'draft');
      // Stored and submitted, as a submission through POST /api/v1/posts is (newest first).
      assert.deepEqual(await auditOf(scheduledRow.postId), ['post.submitted', 'post.created']);
      assert.deepEqual(await auditOf(draftRow.postId), ['post.created']);
      // Approved like any submission: then it is scheduled.
      const approved = await api('editor').json(`/api/v1/posts/${scheduledRow.postId}/approve`, { json: {} });
      assert.equal(approved.status, 200, JSON.stringify(approved.body));
      assert.equal(approved.body.status, 'scheduled');

      // An editor's import is carried out at once, unless the workspace wants everyone approved.
      const byEditor = await importAs('editor', file('imported by an editor'));
      assert.equal((await statusOf('editor', byEditor.body.rows[0].postId)).status, 'scheduled');
      await setApprovals('everyone');
      try {
        const underEveryone = await importAs('editor', file('imported under everyone'));
        assert.equal(
          (await statusOf('editor', underEveryone.body.rows[0].postId)).status,
          'pending_approval',
        );
      } finally {
        await setApprovals('contributors');
      }
      assertForbidden(await importAs('viewer', file('imported by a viewer')), 'contributor');
    });

    test('approve: owner, admin, editor (not their own); contributor and viewer 403; the author never', async () => {
      for (const role of ['owner', 'admin', 'editor'] as const) {
        const post = await submit(`approve by ${role}`);
        const res = await api(role).json(`/api/v1/posts/${post.id}/approve`, {
          json: { comment: `fine by ${role}` },
        });
        assert.equal(res.status, 200, `${role}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.status, 'scheduled');
        assert.equal(res.body.scheduledAt, post.approval.requested.scheduledAt);
        assert.equal(res.body.approval.approved.by.id, team.members[role].userId);
        assert.equal(res.body.approval.approved.comment, `fine by ${role}`);
        const again = await api(role).json(`/api/v1/posts/${post.id}/approve`, { json: {} });
        assert.equal(again.status, 409, 'decided once');
      }
      const post = await submit('nobody below editor approves');
      for (const role of ['contributor', 'viewer'] as const) {
        assertForbidden(await api(role).json(`/api/v1/posts/${post.id}/approve`, { json: {} }), 'editor');
        assertForbidden(
          await api(role).json(`/api/v1/posts/${post.id}/reject`, { json: { comment: 'no' } }),
          'editor',
        );
      }
      // An editor's own submission (approvals for everyone): never approved by its author.
      await setApprovals('everyone');
      try {
        const own = await submit('editor own', 'editor');
        for (const path of ['approve', 'reject']) {
          const res = await api('editor').json(`/api/v1/posts/${own.id}/${path}`, {
            json: { comment: 'mine' },
          });
          assert.equal(res.status, 403, path);
          assert.equal(res.body.code, 'self_approval');
        }
      } finally {
        await setApprovals('contributors');
      }
      const unknown = await api('owner').json(`/api/v1/posts/${crypto.randomUUID()}/approve`, { json: {} });
      assert.equal(unknown.status, 404);
    });

    test('reject: a comment is required; back to draft with approval.rejected; the author hears of it', async () => {
      for (const role of ['owner', 'admin', 'editor'] as const) {
        const post = await submit(`reject by ${role}`);
        const missing = await api(role).json(`/api/v1/posts/${post.id}/reject`, { json: {} });
        assert.equal(missing.status, 422);
        assert.equal(missing.body.errors[0].path, 'comment');
        const blank = await api(role).json(`/api/v1/posts/${post.id}/reject`, { json: { comment: '  ' } });
        assert.equal(blank.status, 422);
        const res = await api(role).json(`/api/v1/posts/${post.id}/reject`, {
          json: { comment: `shorter please (${role})` },
        });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(res.body.status, 'draft');
        assert.equal(res.body.approval.rejected.comment, `shorter please (${role})`);
        assert.equal(res.body.approval.rejected.by.id, team.members[role].userId);
      }
      const contributor = team.members.contributor.email;
      await waitFor(() => mail.to(contributor, 'sent back').length >= 3, 'rejection mails');
      assert.ok(mail.to(contributor, 'shorter please').length >= 1);
    });

    test('approve "now" publishes once; an author edit keeps a post pending; timeline, mails and webhooks', async () => {
      const res = await api('contributor').json('/api/v1/posts', {
        json: { message: 'approved and published', accountIds: [news], postingMode: 'now' },
      });
      assert.equal(res.status, 202);
      const edited = await api('contributor').json(`/api/v1/posts/${res.body.id}`, {
        method: 'PATCH',
        json: { message: 'approved and published!' },
      });
      assert.equal(edited.status, 200);
      assert.equal(edited.body.status, 'pending_approval');
      const approved = await api('editor').json(`/api/v1/posts/${res.body.id}/approve`, { json: {} });
      assert.equal(approved.status, 200, JSON.stringify(approved.body));
      assert.equal(approved.body.status, 'posted');
      assert.equal(sentTexts('approved and published!').length, 1);

      const events = await api('viewer').json(`/api/v1/posts/${res.body.id}/events`);
      const types = events.body.events.map((e: { type: string }) => e.type);
      // Approved to publish now, it was published, never scheduled (contract F's types).
      assert.deepEqual(types, ['created', 'submitted', 'updated', 'approved', 'attempt', 'posted']);
      const audit = await api('owner').json(`/api/v1/audit?action=post.approved&limit=200`);
      assert.equal(audit.status, 200);
      const approvedEntry = audit.body.entries.find(
        (e: { target: { id: string } }) => e.target.id === res.body.id,
      );
      assert.deepEqual(approvedEntry?.details, { status: 'publishing', accounts: 1 });

      // Approvers (owner, admin, editor: not the contributor, not the viewer) heard of the submission.
      const subject = 'submitted a post for approval';
      await waitFor(() => mail.to(team.members.editor.email, subject).length > 0, 'submission mail');
      for (const role of ['owner', 'admin', 'editor'] as const)
        assert.ok(mail.to(team.members[role].email, subject).length > 0, role);
      for (const role of ['contributor', 'viewer'] as const)
        assert.equal(mail.to(team.members[role].email, subject).length, 0, role);
      await waitFor(
        () => mail.to(team.members.contributor.email, 'approved your post').length > 0,
        'approval mail',
      );

      const deliveries = await api('owner').json(`/api/v1/webhooks/${webhookId}/deliveries`);
      assert.equal(deliveries.status, 200);
      const kinds = new Set(deliveries.body.deliveries.map((d: { eventType: string }) => d.eventType));
      for (const kind of ['post.submitted', 'post.approved', 'post.rejected'])
        assert.ok(kinds.has(kind), kind);
    });

    test('the invitation page, with e-mail set up: the link was sent, and a new one keeps the person on the invitation', async () => {
      const email = `appr-${backend}-newcomer@example.com`;
      const created = await api('owner').json(`/api/v1/workspaces/${team.workspaceId}/invitations`, {
        json: { email, role: 'viewer' },
      });
      assert.equal(created.status, 201);
      const path = new URL(created.body.url).pathname;
      const newcomer = new Client(env.app.url);
      const signedUp = await newcomer.json('/api/auth/signup', {
        json: { email, password: 'correct horse battery', name: 'Newcomer' },
      });
      assert.equal(signedUp.status, 201, JSON.stringify(signedUp.body));
      const html = await (await newcomer.fetch(path)).text();
      assert.match(html, /follow the link we sent to <strong>/);
      assert.doesNotMatch(html, /mail-not-set-up/);
      const form = html.match(/<form[\s\S]*?Send a new link[\s\S]*?<\/form>/)?.[0] ?? '';
      assert.ok(form, 'a Send a new link form');
      assert.match(
        form,
        new RegExp(`name="next" value="${path.replaceAll('/', '\\/')}"`),
        'it comes back here',
      );
    });

    test('a requested time that passed: 409 scheduled_time_passed unless approved with a new scheduledAt', async () => {
      const post = await submit('late approval', 'contributor', {
        scheduledAt: new Date(Date.now() + 1500).toISOString(),
      });
      await new Promise((r) => setTimeout(r, 1700));
      const late = await api('owner').json(`/api/v1/posts/${post.id}/approve`, { json: {} });
      assert.equal(late.status, 409, JSON.stringify(late.body));
      assert.equal(late.body.code, 'scheduled_time_passed');
      const past = await api('owner').json(`/api/v1/posts/${post.id}/approve`, {
        json: { scheduledAt: new Date(Date.now() - 60_000).toISOString() },
      });
      assert.equal(past.status, 422);
      const when = inADay();
      const ok = await api('owner').json(`/api/v1/posts/${post.id}/approve`, { json: { scheduledAt: when } });
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      assert.equal(ok.body.status, 'scheduled');
      assert.equal(new Date(ok.body.scheduledAt).getTime(), new Date(when).getTime());
    });

    test('approving a "now" request with a scheduledAt schedules it for then instead of publishing', async () => {
      const post = await submit('approved for later', 'contributor', {
        postingMode: 'now',
        scheduledAt: undefined,
      });
      assert.deepEqual(post.approval.requested, { postingMode: 'now' });
      const when = inADay();
      const ok = await api('owner').json(`/api/v1/posts/${post.id}/approve`, { json: { scheduledAt: when } });
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      assert.equal(ok.body.status, 'scheduled');
      assert.equal(new Date(ok.body.scheduledAt).getTime(), new Date(when).getTime());
      assert.equal(sentTexts('approved for later').length, 0, 'nothing is published now');
    });
    test('two approvers at once: one wins, the post is published exactly once', async () => {
      for (let round = 0; round < 3; round++) {
        const text = `race ${round}`;
        const res = await api('contributor').json('/api/v1/posts', {
          json: { message: text, accountIds: [news], postingMode: 'now' },
        });
        assert.equal(res.status, 202);
        const answers = await Promise.all(
          (['owner', 'admin', 'editor'] as const).map((role) =>
            api(role).json(`/api/v1/posts/${res.body.id}/approve`, { json: {} }),
          ),
        );
        const statuses = answers.map((a) => a.status).sort();
        assert.deepEqual(statuses, [200, 409, 409], JSON.stringify(answers.map((a) => a.body)));
        const rejected = await api('admin').json(`/api/v1/posts/${res.body.id}/reject`, {
          json: { comment: 'late' },
        });
        assert.equal(rejected.status, 409);
        assert.equal(sentTexts(text).length, 1, 'published once');
        const post = await api('owner').json(`/api/v1/posts/${res.body.id}`);
        assert.equal(post.body.status, 'posted');
      }
    });

    test('nothing goes out behind an approval: direct publishing of a pending post is 409; a contributor editing an approved post sends it back', async () => {
      const pending = await submit('only through a decision');
      // Whatever the role: the author's own request is not submitted a second time either.
      for (const role of ['owner', 'contributor'] as const) {
        for (const postingMode of ['now', 'queue', 'schedule'] as const) {
          const res = await api(role).json(`/api/v1/posts/${pending.id}`, {
            json: { postingMode, ...(postingMode === 'schedule' ? { scheduledAt: inADay() } : {}) },
          });
          assert.equal(res.status, 409, `${role} ${postingMode}: ${JSON.stringify(res.body)}`);
          assert.equal(res.body.code, 'invalid_status');
        }
      }
      assert.deepEqual(await auditOf(pending.id), ['post.submitted', 'post.created'], 'submitted once');
      assert.equal(sentTexts('only through a decision').length, 0);

      const approved = await api('owner').json(`/api/v1/posts/${pending.id}/approve`, { json: {} });
      assert.equal(approved.body.status, 'scheduled');
      const edited = await api('contributor').json(`/api/v1/posts/${pending.id}`, {
        method: 'PATCH',
        json: { message: 'changed after approval' },
      });
      assert.equal(edited.status, 200, JSON.stringify(edited.body));
      assert.equal(edited.body.status, 'pending_approval', 'back for a new decision');
      assert.equal(edited.body.message, 'changed after approval');
      assert.equal(edited.body.approval.requested.postingMode, 'schedule');
      assert.equal(edited.body.approval.requested.scheduledAt, pending.approval.requested.scheduledAt);

      // An editor's edit of an approved post needs no new decision.
      const again = await api('editor').json(`/api/v1/posts/${pending.id}/approve`, { json: {} });
      assert.equal(again.body.status, 'scheduled');
      const byEditor = await api('editor').json(`/api/v1/posts/${pending.id}`, {
        method: 'PATCH',
        json: { message: 'editor touch' },
      });
      assert.equal(byEditor.body.status, 'scheduled');

      const audit = await api('owner').json('/api/v1/audit?limit=200');
      const actions = audit.body.entries
        .filter((e: { target: { id: string } }) => e.target.id === pending.id)
        .map((e: { action: string }) => e.action);
      for (const action of ['post.submitted', 'post.approved'])
        assert.ok(actions.includes(action), `${action} in ${actions.join(', ')}`);
    });
  });
}

async function waitFor(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
