import { type FakeTelegram, startFakeTelegram } from '@postwave/shared/testing';
import { type RunningApp, startApp } from './app.ts';
import type { Client } from './client.ts';
import type { Backend } from './databases.ts';
import { bots } from './telegram-bots.ts';

export interface TelegramApp {
  app: RunningApp;
  telegram: FakeTelegram;
  stop(): Promise<void>;
}

/** The app wired to a fake Telegram with two bots and a few channels. */
export async function startTelegramApp(
  backend: Backend,
  env: Record<string, string> = {},
  options: Parameters<typeof startApp>[2] = {},
): Promise<TelegramApp> {
  const telegram = await startFakeTelegram({
    bots: {
      [bots.main.token]: { username: bots.main.username },
      [bots.second.token]: { username: bots.second.username },
    },
    chats: {
      '@news': { id: -1001, title: 'News', username: 'news' },
      '@updates': { id: -1002, title: 'Updates', username: 'updates' },
      '@left': { id: -1003, title: 'Left', username: 'left', botStatus: 'left' },
    },
  });
  let app: RunningApp;
  try {
    app = await startApp(backend, { TELEGRAM_API_URL: telegram.url, ...env }, options);
  } catch (error) {
    await telegram.close();
    throw error;
  }
  return {
    app,
    telegram,
    async stop() {
      await app.stop();
      await telegram.close();
    },
  };
}

/** Connects a Telegram channel for the client's user; returns the account id. */
export async function connectTelegram(client: Client, chat = '@news', bot = bots.main): Promise<string> {
  const res = await client.json('/api/v1/accounts', {
    json: {
      platform: 'telegram',
      platformAccountId: chat,
      credentials: { botToken: bot.token },
      label: chat,
    },
  });
  if (res.status !== 201 && res.status !== 200)
    throw new Error(`connect failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}
