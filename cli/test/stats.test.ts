import assert from 'node:assert/strict';
import { test } from 'node:test';
import { json, postwave, tinyServer } from './helpers.ts';

const accounts = {
  accounts: [
    { id: 'acc-news', platform: 'x', platformAccountId: '1234', label: 'Newsroom', username: 'news' },
    { id: 'acc-bot', platform: 'telegram', platformAccountId: '-1001', username: '@botchannel' },
  ],
};
const postMetrics = {
  targets: [
    {
      accountId: 'acc-news',
      platform: 'x',
      platformPostId: '99',
      url: 'https://x.example/99',
      supported: ['impressions', 'likes'],
      metrics: { impressions: 120, likes: 9 },
      engagement: 9,
      collectedAt: '2026-11-30T10:00:00.000Z',
      metricsState: 'collecting',
      nextCollectAt: '2026-12-01T09:00:00.000Z',
    },
    {
      accountId: 'acc-bot',
      platform: 'telegram',
      platformPostId: '5',
      url: null,
      supported: [],
      metrics: {},
      engagement: null,
      collectedAt: null,
      metricsState: 'unsupported',
      nextCollectAt: null,
    },
    {
      accountId: 'acc-deleted',
      platform: 'x',
      platformPostId: '100',
      url: null,
      supported: ['likes'],
      metrics: {},
      engagement: null,
      collectedAt: null,
      metricsState: 'gone',
      nextCollectAt: null,
    },
  ],
};
const summary = {
  from: '2026-11-01',
  to: '2026-11-30',
  timezone: 'Europe/Berlin',
  totals: { posts: 3, engagement: 9, metrics: { likes: 9 } },
  perAccount: [
    { accountId: 'acc-news', platform: 'x', posts: 1, engagement: 9, metrics: { likes: 9 } },
    { accountId: 'acc-bot', platform: 'telegram', posts: 2, metrics: {} },
  ],
  perDay: [],
  topPosts: [
    {
      postId: 'post-1',
      accountId: 'acc-news',
      platform: 'x',
      url: null,
      message: 'Counting on you',
      postedAt: '2026-11-30T09:00:00.000Z',
      engagement: 9,
      metrics: { likes: 9 },
    },
  ],
};

async function scheduler(
  accountsAnswer = (res: import('node:http').ServerResponse) => json(res, 200, accounts),
) {
  return tinyServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path === '/api/v1/accounts') return accountsAnswer(res);
    if (path === '/api/v1/posts/post-1/metrics') return json(res, 200, postMetrics);
    if (path === '/api/v1/analytics') return json(res, 200, summary);
    json(res, 404, { code: 'not_found', detail: 'Not found' });
  });
}

test("stats <post>: accounts by name, and why a target has no figures in its state's words", async () => {
  const server = await scheduler();
  try {
    const { code, stdout } = await postwave(['stats', 'post-1'], server.url);
    assert.equal(code, 0);
    const [head, news, bot, gone] = stdout.trim().split('\n');
    assert.match(head!, /^ACCOUNT\s+PLATFORM\s+STATE\s/);
    assert.match(news!, /^Newsroom\s+x\s+collecting\s+120\s.*\s9\s+2026-11-30T10:00:00\.000Z$/);
    assert.match(bot!, /^@botchannel\s+telegram\s+unsupported\s.*\snot collected \(platform reports none\)$/);
    assert.match(gone!, /^acc-deleted\s+x\s+gone\s.*\snot collected \(post deleted on the platform\)$/);
    assert.doesNotMatch(stdout, /not yet/);
    assert.equal(server.seen.filter((r) => r === 'GET /api/v1/accounts').length, 1, 'the accounts once');
  } finally {
    await server.close();
  }
});

test('stats: the account table and top posts by name; --json is the API answer as it is', async () => {
  const server = await scheduler();
  try {
    const { code, stdout } = await postwave(
      ['stats', '--from', '2026-11-01', '--to', '2026-11-30'],
      server.url,
    );
    assert.equal(code, 0);
    assert.match(stdout, /\nNewsroom\s+x\s+1\s+9\s/);
    assert.match(stdout, /\n@botchannel\s+telegram\s+2\s+-\s/);
    assert.match(stdout, /\npost-1\s+Newsroom\s+x\s+9\s+Counting on you\n/);
    assert.doesNotMatch(stdout, /acc-news|acc-bot/);

    server.seen.length = 0;
    const raw = await postwave(['stats', '--json'], server.url);
    assert.deepEqual(JSON.parse(raw.stdout), summary);
    const rawPost = await postwave(['stats', 'post-1', '--json'], server.url);
    assert.deepEqual(JSON.parse(rawPost.stdout), postMetrics);
    assert.ok(!server.seen.includes('GET /api/v1/accounts'), '--json needs no names');
  } finally {
    await server.close();
  }
});

test('stats: when the accounts cannot be listed, the ids', async () => {
  const server = await scheduler((res) =>
    json(res, 403, { code: 'forbidden', detail: 'No', title: 'Forbidden', status: 403, type: 'x' }),
  );
  try {
    const { code, stdout } = await postwave(['stats'], server.url);
    assert.equal(code, 0);
    assert.match(stdout, /\nacc-news\s+x\s+1\s/);
  } finally {
    await server.close();
  }
});
