import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  createTumblrConnector,
  tumblrConfigFromEnv,
  tumblrModule,
} from '../../../src/platforms/tumblr/index.ts';
import { type FakeTumblr, startFakeTumblr } from '../../fakes/tumblr.ts';
import { useFixture } from '../../support/fixture.ts';
import { rejection } from '../../support/platform-testing.ts';

const fx = useFixture(async () => ({ fake: await startFakeTumblr() }), {
  stop: (f: { fake: FakeTumblr }) => f.fake.close(),
});

/** What a browser does: follow the consent URL to the fake, which redirects back with a code. */
async function consent(url: string): Promise<URL> {
  const answer = await fetch(url, { redirect: 'manual' });
  assert.equal(answer.status, 302);
  return new URL(answer.headers.get('location')!);
}

describe('Tumblr OAuth connector', () => {
  it('is configured only with a client id and secret', () => {
    assert.equal(tumblrModule.createConnector!({}).configured, false);
    assert.equal(
      tumblrModule.createConnector!({ TUMBLR_CLIENT_ID: 'a', TUMBLR_CLIENT_SECRET: 'b' }).configured,
      true,
    );
  });

  it('asks for basic, write and offline_access, then lists every blog of the login with one grantKey', async () => {
    const connector = createTumblrConnector(tumblrConfigFromEnv(fx.fake.env()));
    const redirectUri = 'https://app.example/api/v1/accounts/connect/tumblr/callback';
    const url = new URL(connector.authorizeUrl({ state: 'st8', redirectUri }));
    assert.equal(url.searchParams.get('scope'), 'basic write offline_access');
    assert.equal(url.searchParams.get('response_type'), 'code');
    const back = await consent(url.toString());
    assert.equal(back.searchParams.get('state'), 'st8');
    const accounts = await connector.exchangeCode({
      code: back.searchParams.get('code')!,
      redirectUri,
      signal: AbortSignal.timeout(5000),
    });
    assert.deepEqual(
      accounts.map((a) => [a.platformAccountId, a.profile.name, a.kind, a.grantKey]),
      [
        ['alice', 'Alice writes', 'Blog (primary)', 't:alice-uuid'],
        ['alice-art', 'Alice draws', 'Blog', 't:alice-uuid'],
      ],
    );
    assert.equal(accounts[0]!.credentials, accounts[1]!.credentials);
    assert.ok(accounts[0]!.credentials.refreshToken);
  });

  it('a refused code is credentials_invalid', async () => {
    const connector = createTumblrConnector(tumblrConfigFromEnv(fx.fake.env()));
    const error = await rejection(
      connector.exchangeCode({
        code: 'bogus',
        redirectUri: 'https://a.example/cb',
        signal: AbortSignal.timeout(5000),
      }),
    );
    assert.equal(error.code, 'credentials_invalid');
  });
});
