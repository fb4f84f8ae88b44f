import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FakeGoogleBusiness, startFakeGoogleBusiness } from '@postwave/shared/testing';
import { publishNow, uploadPng, validation } from './chat-helpers.ts';
import { startTestServer, type TestServer } from './helpers.ts';

/** Google Business Profile through the self-hosted server: accounts file → validation → local posts. */
describe('self-hosted: Google Business Profile', () => {
  let google: FakeGoogleBusiness;
  let server: TestServer;
  before(async () => {
    google = await startFakeGoogleBusiness();
    const credentials = google.credentials();
    server = await startTestServer({
      accounts: [
        {
          id: 'gb-main',
          platform: 'google_business',
          platformAccountId: 'accounts/1100/locations/9001',
          credentials,
        },
        {
          id: 'gb-harbour',
          platform: 'google_business',
          platformAccountId: 'accounts/2200/locations/9002',
          credentials,
        },
      ],
      env: google.env(),
    });
  });
  after(async () => {
    await server?.close();
    await google?.close();
  });

  it('validates 1500 characters, event fields only for events, and drops hidden values', async () => {
    assert.deepEqual(
      (await validation(server, { message: 'x'.repeat(1501), accountIds: ['gb-main'] })).errors,
      ['text_too_long'],
    );
    const event = await validation(server, {
      message: 'Party',
      accountIds: ['gb-main'],
      accountOptions: { 'gb-main': { topicType: 'EVENT' } },
    });
    assert.deepEqual(event.errors.sort(), ['option_required', 'option_required', 'option_required']);
    // A stale event and offer on an update are hidden fields: neither validated nor sent.
    const stale = await validation(server, {
      message: 'Update',
      accountIds: ['gb-main'],
      accountOptions: {
        'gb-main': { topicType: 'STANDARD', event: { title: 'x'.repeat(100) }, offer: { couponCode: 'X' } },
      },
    });
    assert.equal(stale.valid, true, JSON.stringify(stale));
  });

  it('publishes an update with a photo, then an offer, to two locations of one login', async () => {
    const media = [await uploadPng(server, 'bread.png')];
    const update = await publishNow(server, {
      message: 'Fresh bread',
      media,
      accountIds: ['gb-main'],
      accountOptions: {
        'gb-main': { callToAction: { actionType: 'ORDER', url: 'https://bakery.example/order' } },
      },
    });
    assert.equal(update.status, 200, update.raw);
    const post = google.posts.at(-1)!;
    assert.equal(post.location, 'accounts/1100/locations/9001');
    assert.equal((post.body.media as { sourceUrl: string }[])[0]!.sourceUrl, media[0]!.url);
    assert.equal(update.results[0]!.platformPostId, post.name);

    const offer = await publishNow(server, {
      message: '20% off',
      accountIds: ['gb-harbour'],
      accountOptions: {
        'gb-harbour': {
          topicType: 'OFFER',
          event: { title: 'Winter sale', start: '2026-12-01', end: '2026-12-24' },
          offer: { couponCode: 'BREAD20' },
        },
      },
    });
    assert.equal(offer.status, 200, offer.raw);
    assert.equal(google.posts.at(-1)?.location, 'accounts/2200/locations/9002');
    assert.deepEqual(google.posts.at(-1)?.body.offer, { couponCode: 'BREAD20' });
  });

  it('a revoked grant fails needs_reconnect', async () => {
    google.revokeAll();
    const failed = await publishNow(server, { message: 'x', accountIds: ['gb-main'] });
    assert.equal(failed.results[0]!.error?.code, 'needs_reconnect', failed.raw);
  });
});
