import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { discordConfigFromEnv } from '../../../src/platforms/discord/config.ts';
import { createDiscordPublisher } from '../../../src/platforms/discord/index.ts';
import { parseWebhookUrl } from '../../../src/platforms/discord/webhook-url.ts';
import type { PlatformAccount } from '../../../src/platforms/types.ts';
import { memoryMedia } from '../memory-media.ts';

const id = '1234567890123456789';
const token = 'aBcDeFgHiJkLmNoPqRsTuVwXyZ_0123456789-abcdefghijklmnopqrstuvwxyzABCDEFGH';
const webhookUrl = `https://discord.com/api/webhooks/${id}/${token}`;
const publisher = createDiscordPublisher(discordConfigFromEnv({ DISCORD_MAX_FILE_BYTES: '1000' }));
const account: PlatformAccount = {
  id: 'd1',
  platform: 'discord',
  platformAccountId: '42',
  credentials: { webhookUrl },
};

function file(size: number, n = 0) {
  return memoryMedia(new Uint8Array(size), { filename: `f${n}.png`, contentType: 'image/png' });
}

async function codes(message: string, media = [] as ReturnType<typeof file>[], acc = account) {
  const outcome = await publisher.validate({ message }, acc, media, {});
  return outcome.errors.map((e) => e.code);
}

describe('Discord validation', () => {
  it('accepts 2000 characters and refuses 2001, counting code points', async () => {
    assert.deepEqual(await codes('a'.repeat(2000)), []);
    assert.deepEqual(await codes('a'.repeat(2001)), ['text_too_long']);
    // An emoji is one character to Discord, though two UTF-16 units.
    assert.deepEqual(await codes('😀'.repeat(2000)), []);
  });

  it('accepts 10 files and refuses 11', async () => {
    const ten = Array.from({ length: 10 }, (_, n) => file(10, n));
    assert.deepEqual(await codes('hi', ten), []);
    assert.deepEqual(await codes('hi', [...ten, file(10, 10)]), ['too_many_media']);
  });

  it('applies the configured per-file limit at the boundary', async () => {
    assert.deepEqual(await codes('', [file(1000)]), []);
    const over = await publisher.validate({ message: '' }, account, [file(1001)], {});
    assert.deepEqual(
      over.errors.map((e) => [e.code, e.path]),
      [['media_too_large', 'media[0]']],
    );
  });

  it('refuses the sum of files over the per-request limit', async () => {
    const small = createDiscordPublisher(
      discordConfigFromEnv({ DISCORD_MAX_FILE_BYTES: '1000', DISCORD_MAX_REQUEST_BYTES: '2500' }),
    );
    const outcome = await small.validate(
      { message: '' },
      account,
      [file(1000), file(1000, 1), file(600, 2)],
      {},
    );
    assert.deepEqual(
      outcome.errors.map((e) => e.code),
      ['media_too_large'],
    );
  });

  it('refuses an empty message without files', async () => {
    assert.deepEqual(await codes('  \n'), ['empty_post']);
    assert.deepEqual(await codes('', [file(5)]), []);
  });

  it('reports a malformed webhook URL without echoing it', async () => {
    const bad = {
      ...account,
      credentials: { webhookUrl: `https://evil.example/api/webhooks/${id}/${token}` },
    };
    const outcome = await publisher.validate({ message: 'hi' }, bad, [], {});
    assert.equal(outcome.errors[0]?.code, 'credentials_invalid');
    assert.ok(!JSON.stringify(outcome).includes(token));
  });
});

describe('Discord webhook URLs', () => {
  const api = 'https://discord.com';
  it('accepts the URLs Discord hands out', () => {
    assert.deepEqual(parseWebhookUrl(webhookUrl, api), { id, token });
    assert.deepEqual(parseWebhookUrl(`https://discordapp.com/api/webhooks/${id}/${token}`, api), {
      id,
      token,
    });
    assert.deepEqual(parseWebhookUrl(`https://canary.discord.com/api/v10/webhooks/${id}/${token}/`, api), {
      id,
      token,
    });
  });

  it('refuses other hosts, plain http, query strings and malformed paths', () => {
    for (const url of [
      `http://discord.com/api/webhooks/${id}/${token}`,
      `https://discord.com.evil.example/api/webhooks/${id}/${token}`,
      `https://discord.com/api/webhooks/${id}/${token}?thread_id=1`,
      `https://discord.com/api/webhooks/abc/${token}`,
      `https://discord.com/api/webhooks/${id}`,
      'not a url',
    ]) {
      assert.equal(parseWebhookUrl(url, api), undefined, url);
    }
  });

  it('accepts only the configured origin when DISCORD_API_URL points elsewhere', () => {
    const local = 'http://127.0.0.1:5555';
    assert.deepEqual(parseWebhookUrl(`${local}/api/webhooks/${id}/${token}`, local), { id, token });
    assert.equal(parseWebhookUrl(webhookUrl, local), undefined);
    assert.equal(parseWebhookUrl(`http://127.0.0.1:5556/api/webhooks/${id}/${token}`, local), undefined);
  });

  it('checks credentials with the same rule', () => {
    assert.equal(publisher.credentialsSchema.safeParse({ webhookUrl }).success, true);
    assert.equal(
      publisher.credentialsSchema.safeParse({ webhookUrl: 'https://discord.com/' }).success,
      false,
    );
  });
});

describe('Discord options', () => {
  it('accepts username, avatarUrl and threadId', () => {
    const parsed = publisher.optionsSchema.safeParse({
      username: 'Release bot',
      avatarUrl: 'https://example.com/a.png',
      threadId: '1234567890123456789',
    });
    assert.equal(parsed.success, true);
  });

  it('refuses names Discord refuses, unknown keys and bad ids', () => {
    for (const options of [
      { username: 'My Discord bot' },
      { username: 'clyde' },
      { username: 'a'.repeat(81) },
      { threadId: 'general' },
      { avatarUrl: 'ftp://example.com/a.png' },
      { threadID: '1234567890123456789' },
    ]) {
      assert.equal(publisher.optionsSchema.safeParse(options).success, false, JSON.stringify(options));
    }
  });
});
