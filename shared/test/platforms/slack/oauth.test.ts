import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { slackConfigFromEnv } from '../../../src/platforms/slack/config.ts';
import {
  createSlackConnector,
  createSlackPublisher,
  slackModule,
} from '../../../src/platforms/slack/index.ts';
import { rejection } from '../../support/platform-testing.ts';
import { context, slackFixture } from './setup.ts';

const fx = slackFixture();
const signal = () => AbortSignal.timeout(5000);

/** What a browser does on Slack's consent page: approve and follow the redirect back. */
async function consent(authorizeUrl: string): Promise<URL> {
  const response = await fetch(authorizeUrl, { redirect: 'manual' });
  assert.equal(response.status, 302);
  return new URL(response.headers.get('location')!);
}

describe('Slack install (OAuth v2)', () => {
  const redirectUri = 'https://postwave.example/api/v1/accounts/connect/slack/callback';

  it('asks for bot scopes on the consent page next to the API', () => {
    const connector = createSlackConnector(fx.config);
    assert.equal(connector.configured, true);
    assert.equal(connector.pkce, false);
    const url = new URL(connector.authorizeUrl({ state: 'st', redirectUri }));
    assert.equal(url.origin + url.pathname, `${fx.fake.url}/oauth/v2/authorize`);
    assert.equal(url.searchParams.get('client_id'), fx.fake.clientId);
    assert.equal(
      url.searchParams.get('scope'),
      'chat:write,files:write,files:read,channels:read,groups:read',
    );
    assert.equal(url.searchParams.get('redirect_uri'), redirectUri);
    assert.equal(url.searchParams.get('state'), 'st');
    assert.equal(
      slackConfigFromEnv({}).authorizeUrl,
      'https://slack.com/oauth/v2/authorize',
      "Slack's own consent page by default",
    );
    assert.equal(createSlackConnector(slackConfigFromEnv({})).configured, false);
  });

  it('offers every channel the app is a member of, sharing one grant', async () => {
    const connector = createSlackConnector(fx.config);
    const back = await consent(connector.authorizeUrl({ state: 'st', redirectUri }));
    assert.equal(back.searchParams.get('state'), 'st');
    const accounts = await connector.exchangeCode({
      code: back.searchParams.get('code')!,
      redirectUri,
      signal: signal(),
    });
    assert.deepEqual(
      accounts.map((a) => [a.platformAccountId, a.profile.name, a.kind, a.grantKey]),
      [
        ['C0GENERAL1', '#general', 'Channel', fx.fake.team.id],
        ['G0SECRET01', '#secret-plans', 'Private channel', fx.fake.team.id],
      ],
    );
    assert.equal(accounts[0]!.profile.username, 'Fake Workspace');
    assert.match(String(accounts[0]!.credentials.botToken), /^xoxb-/);
    assert.equal(accounts[0]!.credentials.teamId, fx.fake.team.id);
    assert.equal(accounts[0]!.credentials.refreshToken, undefined);
    // conversations.list pages (two channels each here) were followed.
    assert.ok(fx.fake.calls('conversations.list').length >= 2);
    // The token posts.
    const posted = await createSlackPublisher(fx.config).publish(
      { message: 'installed' },
      { id: 'a', platform: 'slack', platformAccountId: 'G0SECRET01', credentials: accounts[1]!.credentials },
      [],
      {},
      context(),
    );
    assert.equal(fx.fake.messages.at(-1)?.ts, posted.platformPostId);
  });

  it('refuses a used or foreign code, and explains an install in no channel', async () => {
    const connector = createSlackConnector(fx.config);
    const back = await consent(connector.authorizeUrl({ state: 'st', redirectUri }));
    const code = back.searchParams.get('code')!;
    const wrongRedirect = await rejection(
      connector.exchangeCode({ code, redirectUri: 'https://elsewhere.example/cb', signal: signal() }),
    );
    assert.equal(wrongRedirect.code, 'credentials_invalid');
    const reused = await rejection(connector.exchangeCode({ code, redirectUri, signal: signal() }));
    assert.equal(reused.code, 'credentials_invalid');
    assert.match(reused.message, /invalid_code/);

    const members = [...fx.fake.channels.values()].filter((c) => c.isMember);
    for (const c of members) c.isMember = false;
    try {
      const again = await consent(connector.authorizeUrl({ state: 'st', redirectUri }));
      const none = await rejection(
        connector.exchangeCode({ code: again.searchParams.get('code')!, redirectUri, signal: signal() }),
      );
      assert.equal(none.code, 'target_unreachable');
      assert.match(none.message, /\/invite/);
    } finally {
      for (const c of members) c.isMember = true;
    }
  });
});

describe('Slack token rotation', () => {
  async function rotatingCredentials(): Promise<Record<string, unknown>> {
    fx.fake.installs.tokenRotation = true;
    const connector = createSlackConnector(fx.config);
    const redirectUri = 'https://postwave.example/cb';
    const back = await consent(connector.authorizeUrl({ state: 's', redirectUri }));
    const [account] = await connector.exchangeCode({
      code: back.searchParams.get('code')!,
      redirectUri,
      signal: signal(),
    });
    return account!.credentials;
  }

  it('renews a token close to expiry once, even for concurrent publishes, and hands the new pair back', async () => {
    const credentials = await rotatingCredentials();
    assert.match(String(credentials.botToken), /^xoxe\.xoxb-/);
    assert.match(String(credentials.refreshToken), /^xoxe-1-/);
    const expiring = { ...credentials, expiresAt: new Date(Date.now() + 60_000).toISOString() };
    const account = { id: 'a', platform: 'slack', platformAccountId: 'C0GENERAL1', credentials: expiring };
    const stored: Record<string, unknown>[] = [];
    const publisher = createSlackPublisher(fx.config);
    await Promise.all(
      ['one', 'two'].map((message) =>
        publisher.publish(
          { message },
          account,
          [],
          {},
          {
            ...context(),
            onCredentialsRefreshed: (fresh) => {
              stored.push(fresh);
            },
          },
        ),
      ),
    );
    const renewals = fx.fake
      .calls('oauth.v2.access')
      .filter((r) => (r.body as Record<string, string>).grant_type === 'refresh_token');
    assert.equal(renewals.length, 1, 'the spent refresh token is not used twice');
    assert.equal(stored.length, 2);
    assert.notEqual(stored[0]!.botToken, credentials.botToken);
    assert.notEqual(stored[0]!.refreshToken, credentials.refreshToken);
    assert.ok(Date.parse(String(stored[0]!.expiresAt)) > Date.now() + 11 * 3_600_000);
    assert.equal(fx.fake.messages.length, 2);
  });

  it('a refused renewal is needs_reconnect', async () => {
    const credentials = await rotatingCredentials();
    const account = {
      id: 'a',
      platform: 'slack',
      platformAccountId: 'C0GENERAL1',
      credentials: { ...credentials, refreshToken: 'xoxe-1-spent', expiresAt: Date.now() - 1000 },
    };
    const error = await rejection(createSlackPublisher(fx.config).verifyCredentials(account));
    assert.equal(error.code, 'needs_reconnect');
    assert.match(error.message, /invalid_refresh_token/);
  });
});

describe('Slack module', () => {
  it('refuses malformed settings at start, naming the variable', () => {
    assert.throws(() => slackModule.create({ SLACK_API_URL: 'ftp://slack.com/api' }), /SLACK_API_URL/);
    assert.throws(() => slackModule.create({ SLACK_MAX_FILE_BYTES: '1GB' }), /SLACK_MAX_FILE_BYTES/);
  });
});
