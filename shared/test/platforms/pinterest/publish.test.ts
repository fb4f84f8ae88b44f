import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createPinterestPublisher } from '../../../src/platforms/pinterest/index.ts';
import { rejection } from '../../support/platform-testing.ts';
import { context, pinterestAccount, pinterestFixture } from './setup.ts';

const fx = pinterestFixture();

describe('Pinterest pins', () => {
  it("offers the sections of the account's board", async () => {
    const choices = await fx.publisher.optionChoices!(
      pinterestAccount(fx.fake),
      'boardSectionId',
      {},
      context(),
    );
    assert.deepEqual(choices, [
      { value: '5027629787972154693', label: 'Desserts' },
      { value: '5027629787972154694', label: 'Mains' },
    ]);
    const travel = pinterestAccount(fx.fake, fx.fake.credentials(), fx.fake.boards[1]!.id);
    assert.deepEqual(await fx.publisher.optionChoices!(travel, 'boardSectionId', {}, context()), []);
    assert.deepEqual(await fx.publisher.optionChoices!(travel, 'title', {}, context()), []);
  });

  it('pins an image by URL with title, description, link, section and alt text', async () => {
    const image = fx.png('cake.png', 'A chocolate cake on a plate');
    const result = await fx.publisher.publish(
      { message: 'The best cake' },
      pinterestAccount(fx.fake),
      [image],
      { title: 'Chocolate cake', link: 'https://example.com/cake', boardSectionId: '5027629787972154693' },
      context(),
    );
    const pin = fx.fake.pins.at(-1)!;
    assert.equal(result.platformPostId, pin.id);
    assert.equal(result.url, `https://www.pinterest.com/pin/${pin.id}/`);
    assert.deepEqual(
      [pin.boardId, pin.boardSectionId, pin.title, pin.description, pin.link, pin.altText, pin.sourceType],
      [
        '549755885175',
        '5027629787972154693',
        'Chocolate cake',
        'The best cake',
        'https://example.com/cake',
        'A chocolate cake on a plate',
        'image_url',
      ],
    );
    assert.deepEqual(
      pin.images.map((i) => i.url),
      [image.url],
    );
  });

  it('pins a carousel of images', async () => {
    const images = [fx.png('1.png'), fx.jpeg('2.jpg'), fx.png('3.png')];
    await fx.publisher.publish({ message: 'Three' }, pinterestAccount(fx.fake), images, {}, context());
    const pin = fx.fake.pins.at(-1)!;
    assert.equal(pin.sourceType, 'multiple_image_urls');
    assert.deepEqual(
      pin.images.map((i) => i.url),
      images.map((i) => i.url),
    );
  });

  it('pins a video through POST /v5/media, the upload and processing until succeeded', async () => {
    const video = fx.mp4();
    await fx.publisher.publish(
      { message: 'Watch' },
      pinterestAccount(fx.fake),
      [video],
      { title: 'Clip' },
      context(),
    );
    const pin = fx.fake.pins.at(-1)!;
    assert.equal(pin.sourceType, 'video_id');
    const media = fx.fake.media.get(pin.mediaId!)!;
    assert.deepEqual([media.status, media.bytes], ['succeeded', video.size]);
    const order = fx.fake.requests.map((r) => `${r.method} ${r.path.replace(/\d+$/, ':id')}`);
    assert.deepEqual(order.slice(0, 2), ['POST /v5/media', 'POST /pinterest-media-upload/']);
    assert.ok(order.filter((o) => o === 'GET /v5/media/:id').length >= 2, 'polled while processing');
    assert.equal(order.at(-1), 'POST /v5/pins');
  });

  it('fails a video Pinterest could not process, permanently', async () => {
    fx.fake.failNextVideo = true;
    const error = await rejection(
      fx.publisher.publish({ message: 'x' }, pinterestAccount(fx.fake), [fx.mp4()], {}, context()),
    );
    assert.deepEqual([error.code, error.retryable], ['media_rejected', false]);
  });

  it('maps a missing board, an image Pinterest cannot fetch, rate limits and outages', async () => {
    const gone = pinterestAccount(fx.fake, fx.fake.credentials(), '999');
    const missing = await rejection(fx.publisher.publish({ message: 'x' }, gone, [fx.png()], {}, context()));
    assert.deepEqual([missing.code, missing.retryable], ['target_unreachable', false]);
    const image = fx.png();
    const unfetchable = await rejection(
      fx.publisher.publish(
        { message: 'x' },
        pinterestAccount(fx.fake),
        [{ ...image, url: `${image.url}-gone` }],
        {},
        context(),
      ),
    );
    assert.equal(unfetchable.code, 'media_rejected');
    fx.fake.server.inject({
      path: /\/v5\/pins$/,
      status: 429,
      headers: { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '42' },
      json: { code: 8, message: 'You have exceeded your rate limit. Try again later.' },
    });
    const limited = await rejection(
      fx.publisher.publish({ message: 'x' }, pinterestAccount(fx.fake), [fx.png()], {}, context()),
    );
    assert.deepEqual([limited.code, limited.retryable, limited.retryAfterMs], ['rate_limited', true, 42_000]);
    fx.fake.server.inject({
      path: /\/v5\/pins$/,
      status: 503,
      json: { code: 0, message: 'Service unavailable' },
    });
    const down = await rejection(
      fx.publisher.publish({ message: 'x' }, pinterestAccount(fx.fake), [fx.png()], {}, context()),
    );
    assert.deepEqual([down.code, down.retryable], ['platform_unavailable', true]);
  });

  it('finds the pin of an attempt whose answer was lost instead of pinning twice', async () => {
    const key = `post-lost-${Math.random()}`;
    fx.fake.losePinAnswer = true;
    const account = pinterestAccount(fx.fake);
    const lost = await rejection(
      fx.publisher.publish(
        { message: 'Only once' },
        account,
        [fx.png()],
        { title: 'Once' },
        context({ idempotencyKey: key }),
      ),
    );
    assert.equal(lost.retryable, true);
    const before = fx.fake.pins.length;
    const again = await fx.publisher.publish(
      { message: 'Only once' },
      account,
      [fx.png()],
      { title: 'Once' },
      context({ idempotencyKey: key }),
    );
    assert.equal(fx.fake.pins.length, before, 'no second pin');
    assert.equal(again.platformPostId, fx.fake.pins.at(-1)!.id);
    // A crashed run's intent (resumed) is looked up the same way.
    const resumed = await createPinterestPublisher(fx.config).publish(
      { message: 'Only once' },
      account,
      [fx.png()],
      { title: 'Once' },
      context({ resumed: { since: new Date(Date.now() - 60_000) } }),
    );
    assert.equal(resumed.platformPostId, again.platformPostId);
  });
});

describe('Pinterest tokens', () => {
  it('renews a token in its last week and hands back the rotated refresh token', async () => {
    const credentials = fx.fake.credentials({ accessTtlSeconds: 3 * 86_400 });
    const stored: Record<string, unknown>[] = [];
    await fx.publisher.publish(
      { message: 'x' },
      pinterestAccount(fx.fake, credentials),
      [fx.png()],
      {},
      context({ onCredentialsRefreshed: (fresh) => void stored.push(fresh) }),
    );
    assert.equal(stored.length, 1);
    assert.notEqual(stored[0]!.refreshToken, credentials.refreshToken);
    assert.equal(stored[0]!.userId, fx.fake.user.id, 'the rest of the credentials is kept');
    const token = fx.fake.calls('/v5/oauth/token')[0]!;
    assert.deepEqual(
      [
        (token.body as Record<string, string>).grant_type,
        (token.body as Record<string, string>).continuous_refresh,
      ],
      ['refresh_token', 'true'],
    );
    assert.match(String(token.headers.authorization), /^Basic /);
  });

  it('a second board of the login with the spent refresh token gets the rotation, not a refusal', async () => {
    const credentials = fx.fake.credentials({ accessTtlSeconds: 30 });
    await fx.publisher.publish(
      { message: 'first' },
      pinterestAccount(fx.fake, credentials),
      [fx.png()],
      {},
      context(),
    );
    // The second board still holds the credentials from before the rotation (in the same process).
    await fx.publisher.publish(
      { message: 'second' },
      pinterestAccount(fx.fake, credentials, fx.fake.boards[1]!.id),
      [fx.png()],
      {},
      context(),
    );
    assert.equal(fx.fake.refusedRefreshes, 0);
    assert.equal(fx.fake.calls('/v5/oauth/token').length, 1);
    // Another process would spend the dead token: Pinterest refuses it, hence the shared grant.
    const elsewhere = await rejection(
      createPinterestPublisher(fx.config).publish(
        { message: 'third' },
        pinterestAccount(fx.fake, credentials, fx.fake.boards[1]!.id),
        [fx.png()],
        {},
        context(),
      ),
    );
    assert.equal(elsewhere.code, 'needs_reconnect');
  });

  it('needs a reconnect once the login revoked the app, and verifies through the board', async () => {
    const profile = await fx.publisher.verifyCredentials(pinterestAccount(fx.fake));
    assert.deepEqual(profile, { name: 'Recipes', username: 'fakepinner', platformAccountId: '549755885175' });
    const account = pinterestAccount(fx.fake);
    fx.fake.revokeAll();
    const error = await rejection(fx.publisher.publish({ message: 'x' }, account, [fx.png()], {}, context()));
    assert.equal(error.code, 'needs_reconnect');
  });
});
