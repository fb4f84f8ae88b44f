import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { AccountEntry } from '@postwave/shared';
import {
  type FakeFacebook,
  type FakeInstagram,
  type FakeLinkedIn,
  sampleJpeg,
  startFakeFacebook,
  startFakeInstagram,
  startFakeLinkedIn,
} from '@postwave/shared/testing';
import { startTestServer, type TestServer } from './helpers.ts';

/** A free port, so SERVICE_PUBLIC_URL can name the server before it starts (platforms fetch media from it). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

interface Result {
  accountId: string;
  status: string;
  platformPostId?: string;
  url?: string;
  error?: { code: string };
}

describe('LinkedIn, Facebook and Instagram through the self-hosted server', () => {
  let linkedin: FakeLinkedIn;
  let facebook: FakeFacebook;
  let instagram: FakeInstagram;
  let server: TestServer;

  before(async () => {
    [linkedin, facebook, instagram] = await Promise.all([
      startFakeLinkedIn(),
      startFakeFacebook(),
      startFakeInstagram(),
    ]);
    const accounts: AccountEntry[] = [
      {
        id: 'li-member',
        platform: 'linkedin',
        platformAccountId: linkedin.memberUrn,
        credentials: { accessToken: linkedin.issueAccessToken().token },
      },
      {
        id: 'li-page',
        platform: 'linkedin',
        platformAccountId: 'urn:li:organization:2414183',
        credentials: { accessToken: linkedin.issueAccessToken().token },
        label: 'Engines page',
      },
      {
        id: 'fb-page',
        platform: 'facebook',
        platformAccountId: facebook.pages[0]!.id,
        credentials: { pageAccessToken: facebook.pageToken() },
      },
      {
        id: 'ig',
        platform: 'instagram',
        platformAccountId: instagram.account.id,
        credentials: { accessToken: instagram.issueToken() },
        username: 'postwave.bakery',
      },
    ];
    const port = await freePort();
    server = await startTestServer({
      accounts,
      env: {
        ...linkedin.env(),
        ...facebook.env(),
        ...instagram.env(),
        PORT: String(port),
        SERVICE_PUBLIC_URL: `http://127.0.0.1:${port}`,
      },
    });
  });
  after(async () => {
    await server?.close();
    await Promise.all([linkedin.close(), facebook.close(), instagram.close()]);
  });

  async function uploadJpeg(): Promise<Record<string, unknown>> {
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(sampleJpeg())], { type: 'image/jpeg' }), 'photo.jpg');
    const response = await server.api('/api/v1/upload', { method: 'POST', body: form });
    assert.equal(response.status, 201);
    return ((await response.json()) as { media: Record<string, unknown> }).media;
  }

  it('lists the accounts without credentials', async () => {
    const body = (await (await server.api('/api/v1/accounts')).json()) as {
      accounts: Record<string, unknown>[];
    };
    assert.deepEqual(
      body.accounts.map((a) => [a.id, a.platform]),
      [
        ['li-member', 'linkedin'],
        ['li-page', 'linkedin'],
        ['fb-page', 'facebook'],
        ['ig', 'instagram'],
      ],
    );
    assert.ok(body.accounts.every((a) => !('credentials' in a)));
  });

  it('warns media_url_not_public for Facebook and Instagram on a loopback URL; Instagram needs media', async () => {
    const media = await uploadJpeg();
    const response = await server.api('/api/v1/validation', {
      json: { message: 'Hi', accountIds: ['li-member', 'fb-page', 'ig'], media: [media] },
    });
    const body = (await response.json()) as {
      valid: boolean;
      results: { accountId: string; warnings: { code: string }[] }[];
    };
    assert.equal(body.valid, true, JSON.stringify(body));
    assert.deepEqual(
      body.results.map((r) => [r.accountId, r.warnings.map((w) => w.code)]),
      [
        ['li-member', []],
        ['fb-page', ['media_url_not_public']],
        ['ig', ['media_url_not_public']],
      ],
    );
    const noMedia = await server.api('/api/v1/posts', {
      json: { message: 'Text only', accountIds: ['ig', 'fb-page'], postingMode: 'now' },
    });
    assert.equal(noMedia.status, 422);
    assert.equal(facebook.posts.length, 0);
  });

  it('publishes one photo to all four accounts; the platforms fetch it from our public URL', async () => {
    const media = await uploadJpeg();
    const message = 'Launch day (beta) #postwave @team';
    const response = await server.api('/api/v1/posts', {
      json: { message, accountIds: ['li-member', 'li-page', 'fb-page', 'ig'], postingMode: 'now', media },
    });
    const body = (await response.json()) as { status: string; results: Result[] };
    assert.equal(response.status, 200, JSON.stringify(body));
    assert.equal(body.status, 'posted');
    const byId = Object.fromEntries(body.results.map((r) => [r.accountId, r]));

    const member = linkedin.posts.find((p) => p.urn === byId['li-member']!.platformPostId)!;
    assert.equal(member.text, message);
    assert.match(member.content?.media?.id ?? '', /^urn:li:image:/);
    assert.equal(
      linkedin.posts.find((p) => p.urn === byId['li-page']!.platformPostId)!.author,
      'urn:li:organization:2414183',
    );

    const fbPost = facebook.posts.find((p) => p.id === byId['fb-page']!.platformPostId)!;
    assert.equal(fbPost.message, message);
    assert.deepEqual(facebook.photos.get(fbPost.photoIds[0]!)!.media?.bytes, sampleJpeg());

    const igPost = instagram.media.find((m) => m.id === byId.ig!.platformPostId)!;
    assert.equal(igPost.caption, message);
    assert.deepEqual(instagram.containers.get(igPost.containerId)!.media?.bytes, sampleJpeg());
    assert.equal(byId.ig!.url, igPost.permalink);
  });

  it('reports a spent Instagram quota as a permanent failure next to the posts that went out', async () => {
    instagram.quotaUsage = instagram.quotaTotal;
    const media = await uploadJpeg();
    const response = await server.api('/api/v1/posts', {
      json: { message: 'Partial', accountIds: ['fb-page', 'ig'], postingMode: 'now', media },
    });
    const body = (await response.json()) as { status: string; results: Result[] };
    assert.equal(response.status, 207, JSON.stringify(body));
    const ig = body.results.find((r) => r.accountId === 'ig')!;
    assert.deepEqual([ig.status, ig.error?.code], ['failed', 'rate_limited']);
    instagram.quotaUsage = 0;
  });
});
