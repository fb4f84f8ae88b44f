import { createServer } from 'node:http';
import { expect, type Page } from '@playwright/test';
import { type FakeTelegram, startFakeTelegram } from '@postwave/shared/testing';
import { startApp } from '../../web/test/helpers/app.ts';
import { test as base, botToken, chat } from './fixtures.ts';

/**
 * The composer journeys (docs/web-ui.md): the usual fixtures, plus two Telegram chats that share a
 * title (the chips must tell them apart) and a local site whose Open Graph tags make a link card.
 * The site is allowed through the SSRF-safe fetch with ALLOW_PRIVATE_HOSTS; `blockedUrl` is not.
 */
export const chans = [
  { handle: '@chan_one', id: -1001000000001, title: 'Chan', username: 'chan_one' },
  { handle: '@chan_two', id: -1001000000002, title: 'Chan', username: 'chan_two' },
];

interface Site {
  url: string;
  /** A loopback page that is not in ALLOW_PRIVATE_HOSTS: the preview must show no card for it. */
  blockedUrl: string;
  hits: string[];
}

const article = `<!doctype html><html><head>
<title>Fallback</title>
<meta property="og:title" content="Postwave launches threads">
<meta property="og:description" content="Write once, thread everywhere.">
<meta property="og:site_name" content="Postwave Blog">
</head><body><p>Article</p></body></html>`;

async function listen(answer: string, hits: string[]): Promise<{ port: number; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    hits.push(req.url ?? '/');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(answer);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    port: (server.address() as { port: number }).port,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export const test = base.extend<object, { site: Site; blockedHits: string[] }>({
  telegram: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take a destructured first argument
    async ({}, use) => {
      const telegram: FakeTelegram = await startFakeTelegram({
        bots: { [botToken]: { username: 'postwave_news_bot', firstName: 'Postwave' } },
        chats: {
          [chat.handle]: { id: chat.id, type: 'channel', title: chat.title, username: 'news' },
          ...Object.fromEntries(
            chans.map((c) => [
              c.handle,
              { id: c.id, type: 'channel' as const, title: c.title, username: c.username },
            ]),
          ),
        },
      });
      await use(telegram);
      await telegram.close();
    },
    { scope: 'worker' },
  ],
  blockedHits: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take a destructured first argument
    async ({}, use) => use([]),
    { scope: 'worker' },
  ],
  site: [
    async ({ blockedHits }, use) => {
      const hits: string[] = [];
      const allowed = await listen(article, hits);
      const blocked = await listen('<html><head><title>internal</title></head></html>', blockedHits);
      await use({
        url: `http://127.0.0.1:${allowed.port}/launch`,
        blockedUrl: `http://127.0.0.1:${blocked.port}/internal`,
        hits,
      });
      await allowed.close();
      await blocked.close();
    },
    { scope: 'worker' },
  ],
  app: [
    async ({ telegram, x, instagram, site }, use) => {
      const app = await startApp('pglite', {
        ...x.env(),
        ...instagram.env(),
        TELEGRAM_API_URL: telegram.url,
        ALLOW_PRIVATE_HOSTS: new URL(site.url).host,
      });
      await use(app);
      await app.stop();
    },
    { scope: 'worker', timeout: 90_000 },
  ],
});

export { expect };

/** Connects one Telegram chat of the fake bot from the accounts page. */
export async function connectChat(page: Page, handle: string): Promise<void> {
  await page.goto('/accounts');
  const before = await page.getByTestId('account-card').count();
  await page.getByRole('button', { name: 'Telegram' }).click();
  await page.getByLabel('Bot token').fill(botToken);
  await page.getByLabel('Channel or chat').fill(handle);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page.getByRole('status')).toContainText('Connected');
  await expect(page.getByTestId('account-card')).toHaveCount(before + 1);
}

/** The user's accounts, through the page's session. */
export async function accountsOf(page: Page): Promise<{ id: string; platform: string; username?: string }[]> {
  const res = await page.request.get('/api/v1/accounts');
  return (await res.json()).accounts;
}

/** Records the JSON bodies the page sends to `POST /api/v1/posts` (the request still goes through). */
export function recordPostRequests(page: Page): Record<string, unknown>[] {
  const bodies: Record<string, unknown>[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/v1/posts') {
      bodies.push(request.postDataJSON());
    }
  });
  return bodies;
}
