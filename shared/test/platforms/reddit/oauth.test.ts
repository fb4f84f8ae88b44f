import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { redditConfigFromEnv } from '../../../src/platforms/reddit/config.ts';
import { createRedditConnector, redditModule } from '../../../src/platforms/reddit/index.ts';
import { rejection } from '../../support/platform-testing.ts';
import { context, redditFixture, subredditAccount } from './setup.ts';

const fx = redditFixture();
const redirectUri = 'https://postwave.example/api/v1/accounts/connect/reddit/callback';

async function consent(authorizeUrl: string): Promise<URL> {
  const response = await fetch(authorizeUrl, { redirect: 'manual' });
  assert.equal(response.status, 302);
  return new URL(response.headers.get('location')!);
}

describe('Reddit OAuth', () => {
  it('asks for a permanent grant with the scopes it uses', () => {
    const connector = createRedditConnector(fx.config);
    assert.equal(connector.configured, true);
    const url = new URL(connector.authorizeUrl({ state: 'st', redirectUri }));
    assert.equal(url.origin + url.pathname, `${fx.fake.url}/api/v1/authorize`);
    assert.equal(url.searchParams.get('duration'), 'permanent');
    assert.equal(url.searchParams.get('response_type'), 'code');
    assert.deepEqual(url.searchParams.get('scope')!.split(' ').sort(), [
      'flair',
      'identity',
      'mysubreddits',
      'read',
      'submit',
    ]);
    assert.equal(url.searchParams.get('state'), 'st');
    assert.equal(createRedditConnector(redditConfigFromEnv({})).configured, false);
    assert.equal(
      new URL(
        createRedditConnector(
          redditConfigFromEnv({ REDDIT_CLIENT_ID: 'a', REDDIT_CLIENT_SECRET: 'b' }),
        ).authorizeUrl({ state: 's', redirectUri }),
      ).origin,
      'https://www.reddit.com',
    );
  });

  it('lists the profile and the subreddits of the login, sharing one grant, and they publish', async () => {
    const connector = redditModule.createConnector!(fx.fake.env());
    const back = await consent(connector.authorizeUrl({ state: 'st', redirectUri }));
    assert.equal(back.searchParams.get('state'), 'st');
    const accounts = await connector.exchangeCode({
      code: back.searchParams.get('code')!,
      redirectUri,
      signal: AbortSignal.timeout(5000),
    });
    assert.deepEqual(
      accounts.map((a) => [a.platformAccountId, a.profile.name, a.kind]),
      [
        ['u_postwave_tester', 'u/postwave_tester', 'Profile'],
        ['postwave', 'r/postwave', 'Subreddit (moderator)'],
        ['flairland', 'r/flairland', 'Subreddit'],
        ['linksonly', 'r/linksonly', 'Subreddit'],
        ['textonly', 'r/textonly', 'Subreddit'],
        ['noimages', 'r/noimages', 'Subreddit'],
      ],
    );
    assert.deepEqual(new Set(accounts.map((a) => a.grantKey)), new Set(['t2_u1abc']));
    const credentials = accounts[1]!.credentials;
    assert.equal(credentials.username, 'postwave_tester');
    assert.ok(credentials.refreshToken && credentials.accessToken && credentials.expiresAt);
    const result = await fx.publisher.publish(
      { message: 'x' },
      subredditAccount(fx.fake, 'postwave', credentials),
      [],
      { title: 'Connected' },
      context(),
    );
    assert.ok(result.platformPostId.startsWith('t3_'));
  });

  it('a refused code or consent is credentials_invalid; bad client credentials too', async () => {
    const connector = createRedditConnector(fx.config);
    const spent = await rejection(
      connector.exchangeCode({ code: 'not-issued', redirectUri, signal: AbortSignal.timeout(5000) }),
    );
    assert.equal(spent.code, 'credentials_invalid');
    const wrongSecret = createRedditConnector(
      redditConfigFromEnv({ ...fx.fake.env(), REDDIT_CLIENT_SECRET: 'nope' }),
    );
    const back = await consent(wrongSecret.authorizeUrl({ state: 's', redirectUri }));
    const refused = await rejection(
      wrongSecret.exchangeCode({
        code: back.searchParams.get('code')!,
        redirectUri,
        signal: AbortSignal.timeout(5000),
      }),
    );
    assert.equal(refused.code, 'credentials_invalid');
    assert.match(refused.message, /REDDIT_CLIENT_ID/);
  });

  it('sends the configured User-Agent and refuses a multi-line one at start', () => {
    assert.throws(() => redditConfigFromEnv({ REDDIT_USER_AGENT: 'a\nb' }), /REDDIT_USER_AGENT/);
    assert.match(redditConfigFromEnv({}).userAgent, /postwave/);
  });
});
