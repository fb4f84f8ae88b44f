import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { startWebhookReceiver, type WebhookReceiver } from '@postwave/shared/testing';
import { type RunningApp, startApp } from '../../web/test/helpers/app.ts';
import { expectAccessible } from './axe.ts';
import { test as base, connectTelegram, expect, signUp } from './fixtures.ts';

/*
 * An outcome lost to a crash (docs/dispatch.md), made by the real dispatcher: two posts are
 * published now to Telegram (no dedupe, no way to check), the fake holds both sends, and the app is
 * killed with SIGKILL while they are in flight. Started again on the same data with a short
 * DISPATCH_LEASE_MS, it finds the abandoned intents, marks both targets unknown and sends
 * `post.unknown`. Then, by keyboard: one is marked as posted, the other posted again, once.
 */

/** The app's successive processes on one data directory (PGlite database, generated keys). */
interface AppLives {
  current: RunningApp;
  /** SIGKILL: no graceful shutdown, so a publish in flight is abandoned mid-send. */
  kill(): Promise<void>;
  /** Starts it again on the same data: the browser's session stays valid, on a new port. */
  restart(): Promise<RunningApp>;
}

const test = base.extend<{ receiver: WebhookReceiver; lives: AppLives }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take a destructured first argument
  receiver: async ({}, use) => {
    const receiver = await startWebhookReceiver();
    await use(receiver);
    await receiver.close();
  },
  lives: [
    async ({ telegram, receiver }, use) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'postwave-unknown-'));
      const env = {
        DATA_DIR: dataDir,
        TELEGRAM_API_URL: telegram.url,
        ALLOW_PRIVATE_HOSTS: new URL(receiver.url).host,
        DISPATCHER_ENABLED: 'true',
        DISPATCHER_INTERVAL_MS: '500',
        // Short, so the next life finds the killed one's publish abandoned within seconds.
        DISPATCH_LEASE_MS: '3000',
      };
      const started: RunningApp[] = [];
      const start = async () => {
        const app = await startApp('pglite', env);
        started.push(app);
        return app;
      };
      const lives: AppLives = {
        current: await start(),
        async kill() {
          lives.current.child.kill('SIGKILL');
          await lives.current.exited;
        },
        async restart() {
          lives.current = await start();
          return lives.current;
        },
      };
      await use(lives);
      for (const app of started) await app.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
    { timeout: 90_000 },
  ],
  // The first life's address; after the restart the journey names the new one.
  baseURL: async ({ lives }, use) => use(lives.current.url),
});

/** Presses Tab until `target` has the focus: it is reached by keyboard alone. */
async function tabTo(page: Page, target: Locator, presses = 100): Promise<void> {
  for (let i = 0; i < presses; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el === document.activeElement)) return;
  }
  throw new Error(`${target} not reached in ${presses} presses of Tab`);
}

const focusOnBody = (page: Page) => page.evaluate(() => document.activeElement === document.body);

test('a send lost to a crash shows as unknown; marked as posted, or posted again once, by keyboard', async ({
  page,
  telegram,
  receiver,
  lives,
}) => {
  test.setTimeout(180_000);
  await signUp(page, 'Margaret Hamilton');
  await connectTelegram(page);
  const first = lives.current;
  const write = { headers: { origin: first.url } };
  const hook = await (
    await page.request.post('/api/v1/webhooks', {
      ...write,
      data: { url: receiver.url, events: ['post.unknown'] },
    })
  ).json();
  receiver.secrets = [hook.secret];
  const [account] = (await (await page.request.get('/api/v1/accounts')).json()).accounts;
  const stamp = Date.now();
  const draft = async (message: string): Promise<{ id: string; message: string }> =>
    (
      await page.request.post('/api/v1/posts', {
        ...write,
        data: { message, accountIds: [account.id], postingMode: 'draft' },
      })
    ).json();
  const checked = await draft(`Checked by hand ${stamp}`);
  const again = await draft(`Sent again ${stamp}`);

  // Both sends reach the platform and are held there; the app dies before either is answered.
  const held = telegram.server.hold(/\/sendMessage$/);
  const publishing = [checked, again].map((post) =>
    page.request.post(`/api/v1/posts/${post.id}`, { ...write, data: { postingMode: 'now' } }).then(
      (response) => `answered ${response.status()}`,
      () => 'connection lost',
    ),
  );
  await expect.poll(() => held.waiting).toBe(2);
  await lives.kill();
  expect(await Promise.all(publishing)).toEqual(['connection lost', 'connection lost']);
  // The fake saw both callers go; nothing it held was handled (released only for later sends).
  await expect.poll(() => held.waiting).toBe(0);
  held.release();
  const sentText = (text: string) => telegram.sent.filter((m) => m.text === text);
  expect(sentText(checked.message)).toHaveLength(0);
  expect(sentText(again.message)).toHaveLength(0);

  const second = await lives.restart();
  const unknownRow = async (postId: string) => {
    await page.goto(`${second.url}/posts/${postId}`);
    const row = page.getByTestId('result');
    // Until the dispatcher finds the publish abandoned the page says so, and follows the post live.
    await expect(row.getByText('Unknown', { exact: true })).toBeVisible({ timeout: 30_000 });
    return row;
  };
  let row = await unknownRow(checked.id);

  // The webhook: a signed `post.unknown` for each post, carrying the Post with its account.
  const deliveries = (await receiver.waitFor(2, 30_000)).map((d) => {
    expect(d.verifiedWith).toEqual([hook.secret]);
    return d.payload as {
      type: string;
      data: { id: string; accountIds: string[]; results: { accountId: string; status: string }[] };
    };
  });
  expect(deliveries.map((d) => d.type)).toEqual(['post.unknown', 'post.unknown']);
  expect(deliveries.map((d) => d.data.id).sort()).toEqual([checked.id, again.id].sort());
  for (const { data } of deliveries) {
    expect(data.accountIds).toEqual([account.id]);
    expect(data.results).toEqual([expect.objectContaining({ accountId: account.id, status: 'unknown' })]);
  }

  // Mark as posted: reached by Tab, pressed by Enter; it keeps the focus while it saves.
  await expect(page.getByRole('alert').filter({ hasText: 'we cannot tell whether' })).toBeVisible();
  await expectAccessible(page, 'post-outcome-unknown', { testInfo: test.info() });
  const markPosted = row.getByRole('button', { name: /^Mark as posted on / });
  await tabTo(page, markPosted);
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(`${second.url}/api/v1/posts/${checked.id}`, async (route) => {
    if (route.request().method() === 'POST') await released;
    await route.fallback();
  });
  // A press before hydration does nothing: pressed until it says so (it ignores presses while it saves).
  await expect(async () => {
    await page.keyboard.press('Enter');
    await expect(markPosted).toHaveText('Saving…', { timeout: 2000 });
  }).toPass();
  await expect(markPosted).toHaveAttribute('aria-disabled', 'true');
  await expect(markPosted).toBeFocused();
  release();
  // Resolved: the actions go with the refresh; the row says Posted and has the focus.
  await expect(row.getByText('Posted', { exact: true })).toBeVisible();
  await expect(markPosted).toHaveCount(0);
  await expect(page.getByTestId('unknown-outcome')).toHaveText(/^Marked as posted on /);
  await expect(row).toBeFocused();
  expect(await focusOnBody(page)).toBe(false);

  // Post again: through the confirmation dialog, by keyboard; the fake receives it once.
  row = await unknownRow(again.id);
  // Named with its account (a post with several unknown targets has one per row).
  await tabTo(page, row.getByRole('button', { name: /^Post again to / }));
  const dialog = page.getByRole('dialog', { name: /^Post again to / });
  await expect(async () => {
    await page.keyboard.press('Enter');
    await expect(dialog).toBeVisible({ timeout: 2000 });
  }).toPass();
  await tabTo(page, dialog.getByRole('button', { name: 'Post again', exact: true }), 5);
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(row.getByText('Posted', { exact: true })).toBeVisible();
  await expect(page.getByTestId('unknown-outcome')).toHaveText(/^Posted again to /);
  await expect(row).toBeFocused();
  expect(await focusOnBody(page)).toBe(false);
  expect(sentText(again.message)).toHaveLength(1);
  expect(sentText(checked.message)).toHaveLength(0);
});
