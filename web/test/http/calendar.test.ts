import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { userWithToken } from '../helpers/client.ts';
import { backends } from '../helpers/databases.ts';
import { connectTelegram, startTelegramApp, type TelegramApp } from '../helpers/fixtures.ts';
import { bots } from '../helpers/telegram-bots.ts';

/**
 * The calendar page's posts over HTTP (the server-rendered grid): a post published now that failed,
 * and a request to publish now waiting for approval, have no posted or scheduled time and show on
 * the day they were attempted or submitted; an account that needs reconnecting flags only the
 * posts still to go out, never one that went out or failed already.
 */

/** The opening tag of the calendar entry of a post, or undefined when the page does not show it. */
function entryTag(html: string, postId: string): string | undefined {
  return html.match(new RegExp(`<div[^>]*data-event-id="${postId}"[^>]*>`))?.[0];
}

for (const backend of backends()) {
  describe(`calendar (${backend})`, () => {
    let env: TelegramApp;

    before(async () => {
      env = await startTelegramApp(backend);
    });
    after(() => env?.stop());

    test('posts published now, failed or waiting for approval, show on their day; only those to go out are flagged', async () => {
      const { session, api } = await userWithToken(env.app.url, `calendar-${backend}`);
      const news = await connectTelegram(api, '@news');
      const workspace = (await session.json('/api/v1/workspaces')).body.currentWorkspaceId;
      const setApprovals = async (approvals: 'off' | 'everyone') => {
        const res = await session.json(`/api/v1/workspaces/${workspace}`, {
          method: 'PATCH',
          json: { settings: { approvals } },
        });
        assert.equal(res.status, 200, JSON.stringify(res.body));
      };
      const publishNow = (message: string) =>
        api.json('/api/v1/posts', { json: { message, accountIds: [news], postingMode: 'now' } });

      const posted = await publishNow('calendar: went out');
      assert.equal(posted.body.status, 'posted');
      await setApprovals('everyone');
      const pending = await publishNow('calendar: waiting for approval');
      assert.equal(pending.status, 202, JSON.stringify(pending.body));
      assert.equal(pending.body.status, 'pending_approval');
      assert.equal(pending.body.scheduledAt, null);
      await setApprovals('off');
      // Telegram refuses the bot's sign-in: the post fails and the account needs reconnecting.
      env.telegram.inject({
        path: new RegExp(`/bot${bots.main.token}/sendMessage$`),
        status: 401,
        json: { ok: false, error_code: 401, description: 'Unauthorized' },
      });
      const failed = await publishNow('calendar: did not go out');
      assert.equal(failed.body.status, 'failed', JSON.stringify(failed.body));
      assert.equal(failed.body.scheduledAt, null);
      assert.equal(failed.body.postedAt, null);
      const account = await api.json(`/api/v1/accounts/${news}`);
      assert.equal(account.body.health, 'needs_reconnect');

      const week = await session.fetch('/calendar?view=week');
      assert.equal(week.status, 200);
      const html = await week.text();
      const shown = {
        posted: entryTag(html, posted.body.id),
        pending: entryTag(html, pending.body.id),
        failed: entryTag(html, failed.body.id),
      };
      assert.match(shown.posted ?? '', /data-status="posted"/);
      assert.doesNotMatch(shown.posted ?? '', /data-trouble/, 'a posted post is past reconnecting');
      assert.match(shown.failed ?? '', /data-status="failed"/);
      assert.doesNotMatch(shown.failed ?? '', /data-trouble/);
      assert.match(shown.pending ?? '', /data-status="pending_approval"/);
      assert.match(shown.pending ?? '', /data-trouble="true"/, 'still to go out: flagged');
      // The day is today's (its cell holds the entry).
      const todayCell = html.match(/<div[^>]*data-today="true"[^>]*>[\s\S]*?<\/h3>/)?.[0];
      assert.ok(todayCell, 'a cell for today');
      const todayStart = html.indexOf(todayCell);
      const nextCell = html.indexOf('class="cal-day"', todayStart + todayCell.length);
      const today = html.slice(todayStart, nextCell === -1 ? undefined : nextCell);
      for (const id of [posted.body.id, pending.body.id, failed.body.id])
        assert.ok(today.includes(`data-event-id="${id}"`), `${id} on today`);

      const onlyFailed = await (await session.fetch('/calendar?view=week&status=failed')).text();
      assert.ok(entryTag(onlyFailed, failed.body.id), 'the failed filter shows the failed post');
      assert.equal(entryTag(onlyFailed, posted.body.id), undefined);
      assert.doesNotMatch(onlyFailed, /Nothing failed in this week/);

      // A day the calendar does not have shows today's week, never a blank page.
      const noSuchDay = await session.fetch('/calendar?view=week&date=2026-99-99');
      assert.equal(noSuchDay.status, 200);
      const fallback = await noSuchDay.text();
      assert.match(fallback, /<h1[^>]*>Calendar<\/h1>/);
      assert.ok(entryTag(fallback, posted.body.id), 'this week, with today’s posts');
    });
  });
}
