import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FetchLike } from '../../../src/http/fetch-like.ts';
import type { MediaInfo } from '../../../src/media/media-file.ts';
import { ListmonkPublisher } from '../../../src/platforms/listmonk/index.ts';
import { listmonkManifest } from '../../../src/platforms/listmonk/manifest.ts';
import { listmonkOptionsSchema } from '../../../src/platforms/listmonk/options.ts';
import type { PlatformAccount } from '../../../src/platforms/types.ts';
import { withRetry } from '../../../src/publish/retry.ts';
import { type FakeListmonk, startFakeListmonk } from '../../fakes/listmonk.ts';
import { samplePng } from '../../fakes/sample-media.ts';
import { useFixture } from '../../support/fixture.ts';
import { fastRetries, rejection, testPublishContext } from '../../support/platform-testing.ts';
import { memoryMedia } from '../memory-media.ts';

const fx = useFixture(
  async () => {
    const fake = await startFakeListmonk({
      users: { postwave: 'tok-123', reader: 'tok-ro' },
      readOnly: ['reader'],
      path: '/listmonk',
    });
    return { fake, publisher: new ListmonkPublisher() };
  },
  {
    stop: (f) => f.fake.close(),
    reset: (f) => {
      f.fake.server.clearInjected();
      f.fake.server.requests.length = 0;
      f.fake.campaigns.length = 0;
      f.fake.media.length = 0;
      f.publisher = new ListmonkPublisher();
    },
  },
);

const account = (list = '3', username = 'postwave', apiToken?: string): PlatformAccount => ({
  id: 'lm-1',
  platform: 'listmonk',
  platformAccountId: list,
  credentials: { ...fx.fake.credentials(username), ...(apiToken ? { apiToken } : {}) },
});
const context = (overrides = {}) => testPublishContext('lm-1', overrides);
const image = (name: string, altText?: string) => ({
  ...memoryMedia(new Uint8Array(samplePng()), { filename: name, contentType: 'image/png' }),
  ...(altText ? { altText } : {}),
});
const fake = (): FakeListmonk => fx.fake;
const calls = () => fake().server.requests.map((r) => `${r.method} ${r.path.replace('/listmonk', '')}`);

describe('Listmonk publishing', () => {
  it('uploads images, creates a Markdown campaign to the list, then starts it', async () => {
    const result = await fx.publisher.publish(
      { message: '# Weekly news\n\nHello **readers**.' },
      account(),
      [image('top.png', 'Header'), image('two.png')],
      {},
      context(),
    );
    assert.deepEqual(calls(), [
      'POST /api/media',
      'POST /api/media',
      'POST /api/campaigns',
      'PUT /api/campaigns/1/status',
    ]);
    assert.equal(fake().server.requests[0]!.headers.authorization, 'token postwave:tok-123');
    const campaign = fake().campaigns[0]!;
    const [top, two] = fake().media;
    assert.deepEqual(
      [campaign.name, campaign.subject, campaign.lists.map((l) => l.id), campaign.contentType, campaign.type],
      ['Weekly news', 'Weekly news', [3], 'markdown', 'regular'],
    );
    assert.equal(campaign.body, `![Header](<${top!.url}>)\n\nHello **readers**.\n\n![](<${two!.url}>)`);
    assert.equal(campaign.status, 'running');
    assert.deepEqual(fake().server.requests.at(-1)!.body, { status: 'running' });
    assert.deepEqual(result, { platformPostId: '1', url: `${fake().url}/admin/campaigns/1` });
  });

  it('draft: the campaign is left a draft; the subject option takes the whole message as body', async () => {
    await fx.publisher.publish(
      { message: 'All body' },
      account(),
      [],
      listmonkOptionsSchema.parse({ subject: 'Chosen', draft: 'true' }),
      context(),
    );
    assert.deepEqual(calls(), ['POST /api/campaigns']);
    const campaign = fake().campaigns[0]!;
    assert.deepEqual([campaign.subject, campaign.body, campaign.status], ['Chosen', 'All body', 'draft']);
  });

  it('classifies refusals: bad token and a role without the right (403), invalid campaign, 5xx', async () => {
    const bad = await rejection(
      fx.publisher.publish({ message: 'T' }, account('3', 'postwave', 'wrong'), [], {}, context()),
    );
    assert.deepEqual([bad.code, bad.status, bad.retryable], ['credentials_invalid', 403, false]);
    const readOnly = await rejection(
      fx.publisher.publish({ message: 'T' }, account('3', 'reader'), [], {}, context()),
    );
    assert.equal(readOnly.code, 'credentials_invalid');
    assert.match(readOnly.message, /permission denied/);
    const noList = await rejection(fx.publisher.publish({ message: 'T' }, account('99'), [], {}, context()));
    assert.deepEqual([noList.code, noList.retryable], ['content_rejected', false]);
    assert.match(noList.message, /lists not found/);
    fake().server.inject({ status: 502, text: 'Bad Gateway' });
    const down = await rejection(fx.publisher.publish({ message: 'T' }, account(), [], {}, context()));
    assert.deepEqual([down.code, down.retryable], ['platform_unavailable', true]);
    assert.equal(fake().campaigns.length, 0);
  });

  it('a failed start is retried alone: one campaign, started once', async () => {
    fake().server.inject({ path: /\/status$/, status: 503, json: { message: 'database busy' } });
    const ctx = context();
    const result = await withRetry(
      () => fx.publisher.publish({ message: 'Once\nbody' }, account(), [image('a.png')], {}, ctx),
      fastRetries(),
    );
    assert.equal(fake().campaigns.length, 1);
    assert.equal(fake().media.length, 1);
    assert.equal(fake().campaigns[0]!.status, 'running');
    assert.equal(result.platformPostId, String(fake().campaigns[0]!.id));
  });

  it('an answer lost after Listmonk created the campaign is found by subject and list: never twice', async () => {
    let cut = true;
    const original = globalThis.fetch;
    globalThis.fetch = async (input, init) => {
      const response = await original(input, init);
      if (cut && init?.method === 'POST' && String(input).endsWith('/api/campaigns')) {
        cut = false;
        throw new TypeError('socket hang up');
      }
      return response;
    };
    try {
      const ctx = context({ idempotencyKey: 'lost:lm-1' });
      await rejection(fx.publisher.publish({ message: 'Lost once\nx' }, account(), [], {}, ctx));
      const again = await fx.publisher.publish({ message: 'Lost once\nx' }, account(), [], {}, ctx);
      assert.equal(fake().campaigns.length, 1);
      assert.equal(again.platformPostId, String(fake().campaigns[0]!.id));
      assert.equal(fake().campaigns[0]!.status, 'running', 'the found draft was started');
    } finally {
      globalThis.fetch = original;
    }
  });

  it('reaches the server only through the account-host fetch it is given', async () => {
    const seen: string[] = [];
    const guarded: FetchLike = (url, init) => {
      seen.push(String(url));
      return fetch(url, init);
    };
    await fx.publisher.publish(
      { message: 'Guarded' },
      account(),
      [],
      { draft: true },
      context({ accountHostFetch: guarded }),
    );
    await fx.publisher.verifyCredentials(account(), {
      signal: AbortSignal.timeout(5000),
      accountHostFetch: guarded,
    });
    assert.deepEqual(seen.length, 2);
    assert.ok(seen.every((u) => u.startsWith(fake().url)));
  });

  it('verifies the API user and names the account by the list, given its id or its name', async () => {
    assert.deepEqual(await fx.publisher.verifyCredentials(account('3')), {
      name: 'Newsletter',
      username: `postwave@${new URL(fake().url).host}`,
      platformAccountId: '3',
    });
    assert.equal((await fx.publisher.verifyCredentials(account('newsletter'))).platformAccountId, '3');
    assert.equal((await rejection(fx.publisher.verifyCredentials(account('42')))).code, 'target_unreachable');
    assert.equal(
      (await rejection(fx.publisher.verifyCredentials(account('Nope')))).code,
      'target_unreachable',
    );
    const refused = await rejection(fx.publisher.verifyCredentials(account('3', 'postwave', 'wrong')));
    assert.equal(refused.code, 'credentials_invalid');
  });
});

const info = (contentType = 'image/png'): MediaInfo => ({
  key: 'k',
  filename: 'a',
  contentType,
  size: 1,
  kind: 'image',
  url: 'http://127.0.0.1/media/a',
});
const target = (platformAccountId = '3'): PlatformAccount => ({
  id: 'lm-9',
  platform: 'listmonk',
  platformAccountId,
  credentials: { baseUrl: 'https://lists.example.com', username: 'u', apiToken: 't' },
});

describe('Listmonk validation', () => {
  const publisher = new ListmonkPublisher();
  it('subject up to 2000 characters, from the option or the first line; the counter agrees', async () => {
    assert.deepEqual((await publisher.validate({ message: 'é'.repeat(2000) }, target(), [], {})).errors, []);
    const long = await publisher.validate({ message: 'é'.repeat(2001) }, target(), [], {});
    assert.deepEqual(
      long.errors.map((e) => [e.code, e.path]),
      [['title_too_long', 'message']],
    );
    const option = await publisher.validate({ message: 'x' }, target(), [], { subject: 'y'.repeat(2001) });
    assert.deepEqual(
      option.errors.map((e) => e.path),
      ['accountOptions.lm-9.subject'],
    );
    assert.deepEqual(
      listmonkManifest.text.count({ message: 'x', hasMedia: false, options: { subject: 'abc' } }).used,
      3,
    );
    assert.equal(
      (await publisher.validate({ message: '' }, target(), [], {})).errors[0]?.code,
      'title_required',
    );
  });

  it('images only, uploaded (no public URL needed); the account must name a list id', async () => {
    const ok = await publisher.validate({ message: 'T' }, target(), [info()], {});
    assert.deepEqual([ok.errors, ok.warnings], [[], []]);
    assert.equal(
      (await publisher.validate({ message: 'T' }, target(), [info('video/mp4')], {})).errors[0]?.code,
      'media_type_unsupported',
    );
    assert.equal(
      (await publisher.validate({ message: 'T' }, target('news'), [], {})).errors[0]?.code,
      'target_unreachable',
    );
    assert.equal(listmonkOptionsSchema.safeParse({ status: 'running' }).success, false);
  });
});
