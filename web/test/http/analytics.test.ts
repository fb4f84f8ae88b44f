import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type FakeX, startFakeX } from '@postwave/shared/testing';
import { dispatchSecret, type RunningApp, startApp } from '../helpers/app.ts';
import { signUp } from '../helpers/client.ts';
import { backends } from '../helpers/databases.ts';
import { connect } from '../helpers/oauth.ts';

const cliMain = resolve(import.meta.dirname, '..', '..', '..', 'cli', 'src', 'main.ts');

/** Runs `postwave …` against the app with a token; answers its exit code and output. */
function cli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string }> {
  const child = spawn(process.execPath, [resolve(cliMain), ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout.on('data', (d) => {
    stdout += d;
  });
  return new Promise((done) => child.on('exit', (code) => done({ code: code ?? 1, stdout })));
}

for (const backend of backends()) {
  describe(`Scheduler: analytics over HTTP (${backend})`, () => {
    let app: RunningApp;
    let x: FakeX;
    before(async () => {
      x = await startFakeX();
      // Collections 1 s and 1 h after posting: a test can wait for the second one.
      app = await startApp(backend, { ...x.env(), ANALYTICS_COLLECT_AFTER: '1s,1h' });
    });
    after(async () => {
      await app?.stop();
      await x?.close();
    });

    const collect = async () => {
      const res = await fetch(`${app.url}/api/internal/analytics/collect`, {
        method: 'POST',
        headers: { authorization: `Bearer ${dispatchSecret}` },
      });
      assert.equal(res.status, 200);
      return res.json();
    };

    test('figures follow the fake between collections; refresh, series, summary, export, best times, MCP and CLI', async () => {
      const { client: browser } = await signUp(app.url, 'analytics');
      const token = (await browser.json('/api/v1/tokens', { json: { name: 'cli' } })).body.token as string;
      const api = browser.withToken(token);
      const account = await api.json('/api/v1/accounts', {
        json: { platform: 'x', credentials: x.credentials() },
      });
      assert.equal(account.status, 201, JSON.stringify(account.body));
      const accountId = account.body.id as string;

      const posted = await api.json('/api/v1/posts', {
        json: { message: 'Counting on you', accountIds: [accountId], postingMode: 'now' },
      });
      assert.equal(posted.body.status, 'posted', JSON.stringify(posted.body));
      const postId = posted.body.id as string;
      const tweetId = posted.body.results[0].platformPostId as string;

      x.figures.set(tweetId, { like_count: 2, impression_count: 40 });
      x.figures.followers = 120;
      const refreshed = await api.json(`/api/v1/posts/${postId}/metrics/refresh`, { method: 'POST' });
      assert.equal(refreshed.status, 202);
      assert.equal(refreshed.body.targets[0].metrics.likes, 2);
      const again = await api.json(`/api/v1/posts/${postId}/metrics/refresh`, { method: 'POST' });
      assert.equal(again.status, 429);
      assert.ok(Number(again.headers.get('retry-after')) > 0);

      // The figures change on the platform; the scheduled collection (1 s after posting) reads them.
      x.figures.set(tweetId, { like_count: 9, retweet_count: 3, impression_count: 200 });
      await new Promise((r) => setTimeout(r, 1100));
      const run = await collect();
      assert.equal(run.collected, 1);
      assert.equal(run.accounts, 1);
      const metrics = await api.json(`/api/v1/posts/${postId}/metrics?history=true`);
      assert.equal(metrics.status, 200);
      const [target] = metrics.body.targets;
      assert.deepEqual(target.metrics, {
        impressions: 200,
        likes: 9,
        comments: 0,
        reposts: 3,
        quotes: 0,
        saves: 0,
      });
      assert.equal(target.engagement, 12);
      assert.equal(target.metricsState, 'collecting');
      assert.deepEqual(
        target.history.map((h: { metrics: { likes: number } }) => h.metrics.likes),
        [2, 9],
      );
      // The post page describes the configured schedule (1s,1h here), not the default one.
      const postPage = await (await browser.fetch(`/posts/${postId}`)).text();
      assert.match(postPage, /Collected about 1 s and 1 h after posting\./);
      assert.doesNotMatch(postPage, /30 d/);

      const today = new Date().toISOString().slice(0, 10);
      const series = await api.json(`/api/v1/accounts/${accountId}/metrics?from=${today}&to=${today}`);
      assert.deepEqual(series.body.series, [
        { date: today, followers: 120, posts: 1, engagement: 12, impressions: 200 },
      ]);

      const summary = await api.json(`/api/v1/analytics?from=${today}&to=${today}&accountIds=${accountId}`);
      assert.equal(summary.status, 200);
      assert.equal(summary.body.totals.posts, 1);
      assert.equal(summary.body.totals.metrics.likes, 9);
      assert.equal(summary.body.topPosts[0].postId, postId);
      assert.equal((await api.json('/api/v1/analytics?from=nope')).status, 400);
      // Days that do not exist (Date.parse rolls them over; the database refuses them) are 400s too.
      for (const path of [
        '/api/v1/analytics?from=2024-02-30&to=2024-03-05',
        `/api/v1/accounts/${accountId}/metrics?from=2024-04-01&to=2024-04-31`,
        '/api/v1/analytics/export?format=json&from=2023-02-29&to=2023-03-01',
        '/api/v1/analytics?to=0000-01-01',
        // Only `to`: the default `from` is counted back from it, after it is checked.
        '/api/v1/analytics?to=2026-13-01',
        '/api/v1/analytics/export?format=csv&to=2026-13-01',
        `/api/v1/accounts/${accountId}/metrics?to=2026-02-30`,
      ]) {
        const refused = await api.json(path);
        assert.equal(refused.status, 400, path);
        assert.equal(refused.body.code, 'invalid_request', path);
      }
      assert.equal((await api.json(`/api/v1/posts/${postId}/metrics?history=yes`)).status, 400);

      const csv = await api.fetch(`/api/v1/analytics/export?format=csv&from=${today}&to=${today}`);
      assert.match(csv.headers.get('content-type') ?? '', /text\/csv/);
      const csvText = await csv.text();
      // The one CSV writer's records: CRLF-terminated, as every CSV the Scheduler writes.
      assert.ok(csvText.endsWith('\r\n') && !/[^\r]\n/.test(csvText), JSON.stringify(csvText.slice(0, 200)));
      const lines = csvText.trim().split('\r\n');
      assert.equal(lines.length, 2);
      assert.match(lines[1]!, new RegExp(`^${postId},${accountId},x,`));

      const best = await api.json(`/api/v1/accounts/${accountId}/best-times`);
      assert.equal(best.body.reason, 'insufficient_data');

      // Another user sees none of it.
      const { client: stranger } = await signUp(app.url, 'stranger');
      assert.equal((await stranger.json(`/api/v1/posts/${postId}/metrics`)).status, 404);
      assert.equal((await stranger.json(`/api/v1/accounts/${accountId}/metrics`)).status, 404);
      // Naming another workspace's account in a filter is a 404 too, not an empty summary.
      const filtered = await stranger.json(`/api/v1/analytics?accountIds=${accountId}`);
      assert.equal(filtered.status, 404);
      assert.equal(filtered.body.code, 'not_found');
      assert.equal(
        (await stranger.json(`/api/v1/posts/${postId}/metrics/refresh`, { method: 'POST' })).status,
        404,
      );

      const { client: mcp } = await connect(app.url, browser);
      const tool = async (name: string, args: Record<string, unknown>) => {
        const answer = await mcp.callTool({ name, arguments: args });
        assert.equal(answer.isError, undefined, JSON.stringify(answer.content));
        // biome-ignore lint/suspicious/noExplicitAny: test assertions read arbitrary JSON
        return answer.structuredContent as any;
      };
      assert.equal((await tool('get_post_metrics', { id: postId })).targets[0].metrics.likes, 9);
      assert.equal((await tool('get_analytics', { from: today, to: today })).totals.engagement, 12);
      assert.equal((await tool('get_best_times', { accountId })).reason, 'insufficient_data');
      await mcp.close();

      const env = { POSTWAVE_URL: app.url, POSTWAVE_TOKEN: token, POSTWAVE_CONFIG_DIR: app.dataDir };
      const json = await cli(['stats', postId, '--json'], env);
      assert.equal(json.code, 0);
      assert.equal(JSON.parse(json.stdout).targets[0].metrics.reposts, 3);
      const text = await cli(['stats', '--from', today, '--to', today], env);
      assert.equal(text.code, 0);
      assert.match(text.stdout, /1 post\(s\), engagement 12/);
      assert.match(text.stdout, /Counting on you/);
    });
  });
}
