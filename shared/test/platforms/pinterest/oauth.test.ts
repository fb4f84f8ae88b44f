import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  createPinterestConnector,
  createPinterestPublisher,
  pinterestModule,
} from '../../../src/platforms/pinterest/index.ts';
import { rejection } from '../../support/platform-testing.ts';
import { context, pinterestFixture } from './setup.ts';

const fx = pinterestFixture();
const redirectUri = 'https://postwave.example/api/v1/accounts/connect/pinterest/callback';
const signal = () => AbortSignal.timeout(5000);

async function consent(url: string): Promise<URL> {
  const response = await fetch(url, { redirect: 'manual' });
  assert.equal(response.status, 302);
  return new URL(response.headers.get('location')!);
}

describe('Pinterest sign-in (OAuth)', () => {
  it('asks for the board and pin scopes with the app id', () => {
    const connector = createPinterestConnector(fx.config);
    assert.equal(connector.configured, true);
    const url = new URL(connector.authorizeUrl({ state: 'st', redirectUri }));
    assert.equal(url.origin + url.pathname, `${fx.fake.url}/oauth/`);
    assert.equal(url.searchParams.get('client_id'), fx.fake.appId);
    assert.equal(url.searchParams.get('scope'), 'boards:read,pins:read,pins:write,user_accounts:read');
    assert.equal(url.searchParams.get('response_type'), 'code');
    assert.equal(url.searchParams.get('state'), 'st');
    assert.equal(pinterestModule.createConnector!({}).configured, false);
  });

  it('offers every board of the login (paged), all sharing one grant, each able to pin', async () => {
    // More boards than one page holds, so the bookmark is followed.
    for (let i = 0; i < 120; i++)
      fx.fake.boards.push({ id: String(600000 + i), name: `Board ${i}`, privacy: 'PUBLIC', sections: [] });
    try {
      const connector = createPinterestConnector(fx.config);
      const back = await consent(connector.authorizeUrl({ state: 'st', redirectUri }));
      const accounts = await connector.exchangeCode({
        code: back.searchParams.get('code')!,
        redirectUri,
        signal: signal(),
      });
      assert.equal(accounts.length, 123);
      assert.deepEqual(
        accounts.slice(0, 3).map((a) => [a.platformAccountId, a.profile.name, a.kind, a.grantKey]),
        [
          ['549755885175', 'Recipes', 'Board', fx.fake.user.id],
          ['549755885176', 'Travel', 'Board', fx.fake.user.id],
          ['549755885177', 'Drafts', 'Secret board', fx.fake.user.id],
        ],
      );
      assert.equal(accounts[0]!.profile.username, 'fakepinner');
      const credentials = accounts[0]!.credentials;
      assert.match(String(credentials.accessToken), /^pina_/);
      assert.match(String(credentials.refreshToken), /^pinr\./);
      assert.equal(credentials.userId, fx.fake.user.id);
      assert.ok(Date.parse(String(credentials.refreshExpiresAt)) > Date.now() + 59 * 86_400_000);
      const pinned = await createPinterestPublisher(fx.config).publish(
        { message: 'Connected' },
        { id: 'a', platform: 'pinterest', platformAccountId: '549755885176', credentials },
        [fx.png()],
        {},
        context(),
      );
      assert.equal(fx.fake.pins.at(-1)!.id, pinned.platformPostId);
      assert.equal(fx.fake.pins.at(-1)!.boardId, '549755885176');
    } finally {
      fx.fake.boards.splice(3);
    }
  });

  it('refuses a used code as a failed sign-in', async () => {
    const connector = createPinterestConnector(fx.config);
    const back = await consent(connector.authorizeUrl({ state: 'st', redirectUri }));
    const code = back.searchParams.get('code')!;
    await connector.exchangeCode({ code, redirectUri, signal: signal() });
    const used = await rejection(connector.exchangeCode({ code, redirectUri, signal: signal() }));
    assert.equal(used.code, 'credentials_invalid');
    const wrongApp = createPinterestConnector({ ...fx.config, appSecret: 'nope' });
    const again = await consent(wrongApp.authorizeUrl({ state: 'st', redirectUri }));
    const refused = await rejection(
      wrongApp.exchangeCode({ code: again.searchParams.get('code')!, redirectUri, signal: signal() }),
    );
    assert.equal(refused.code, 'credentials_invalid');
  });
});
