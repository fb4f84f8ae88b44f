import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MediaFile, MediaInfo } from '../../../src/media/media-file.ts';
import { type DribbbleConfig, dribbbleConfigFromEnv } from '../../../src/platforms/dribbble/config.ts';
import {
  createDribbbleConnector,
  createDribbblePublisher,
  imageSize,
} from '../../../src/platforms/dribbble/index.ts';
import { dribbbleOptionsSchema } from '../../../src/platforms/dribbble/options.ts';
import type { PlatformAccount } from '../../../src/platforms/types.ts';
import { type FakeDribbble, pngOfSize, startFakeDribbble } from '../../fakes/dribbble.ts';
import { sampleGif, sampleJpeg, samplePdf } from '../../fakes/sample-media.ts';
import { useFixture } from '../../support/fixture.ts';
import { rejection, testPublishContext } from '../../support/platform-testing.ts';
import { memoryMedia } from '../memory-media.ts';

const fast = (config: DribbbleConfig): DribbbleConfig => ({ ...config, pollMinMs: 5, pollMaxMs: 20 });
const fx = useFixture(
  async () => {
    const fake = await startFakeDribbble();
    const config = fast(dribbbleConfigFromEnv(fake.env()));
    return { fake, config, publisher: createDribbblePublisher(config), token: fake.issueToken() };
  },
  {
    stop: (f) => f.fake.close(),
    reset: (f) => {
      f.fake.server.clearInjected();
      f.fake.server.requests.length = 0;
      f.fake.shots.length = 0;
      f.fake.processingPolls = 2;
      f.publisher = createDribbblePublisher(f.config);
    },
  },
);

const account = (accessToken = fx.token): PlatformAccount => ({
  id: 'dr-1',
  platform: 'dribbble',
  platformAccountId: '8421',
  credentials: { accessToken },
});
const context = (overrides = {}) => testPublishContext('dr-1', overrides);
const png = (width: number, height: number, name = 'shot.png') =>
  memoryMedia(new Uint8Array(pngOfSize(width, height)), { filename: name, contentType: 'image/png' });
const fake = (): FakeDribbble => fx.fake;

describe('Dribbble image header', () => {
  it('reads PNG, GIF and JPEG dimensions from the first bytes', () => {
    assert.deepEqual(imageSize(pngOfSize(800, 600)), { width: 800, height: 600 });
    assert.deepEqual(imageSize(sampleGif()), { width: 1, height: 1 });
    const jpeg = imageSize(sampleJpeg());
    assert.ok(jpeg && jpeg.width > 0 && jpeg.height > 0, JSON.stringify(jpeg));
    // A JPEG whose frame header follows an APP1 segment.
    const app1 = Buffer.from([0xff, 0xe1, 0x00, 0x06, 1, 2, 3, 4]);
    const sof = Buffer.from([
      0xff, 0xc2, 0x00, 0x11, 8, 0x04, 0xb0, 0x06, 0x40, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    ]);
    assert.deepEqual(imageSize(Buffer.concat([Buffer.from([0xff, 0xd8]), app1, sof])), {
      width: 1600,
      height: 1200,
    });
    assert.equal(imageSize(samplePdf()), undefined);
  });
});

describe('Dribbble validation', () => {
  const info = (file: MediaFile): MediaInfo => ({ ...file, url: `https://media.example.test/${file.key}` });
  const validate = (files: MediaFile[], options: Record<string, unknown> = { title: 'Shot' }) =>
    fx.publisher.validate(
      { message: 'About it' },
      account(),
      files.map(info),
      dribbbleOptionsSchema.parse(options),
      {
        resolveOwnMedia: async (url) => files.find((f) => url.endsWith(f.key)) ?? null,
      },
    );
  const codes = async (files: MediaFile[], options?: Record<string, unknown>) =>
    (await validate(files, options)).errors.map((e) => e.code);

  it('checks the dimensions from the stored image: 400×300 to 1600×1200, exactly 4:3', async () => {
    for (const [w, h] of [
      [400, 300],
      [800, 600],
      [1600, 1200],
    ])
      assert.deepEqual(await codes([png(w!, h!)]), [], `${w}×${h}`);
    for (const [w, h] of [
      [800, 800],
      [320, 240],
      [2000, 1500],
      [801, 600],
    ])
      assert.deepEqual(await codes([png(w!, h!)]), ['media_dimensions_invalid'], `${w}×${h}`);
    const message = (await validate([png(1000, 1000)])).errors[0]!.message;
    assert.match(message, /this image is 1000×1000/);
  });

  it('a title, exactly one image, PNG/JPEG/GIF up to 8 MB, at most 12 tags', async () => {
    assert.deepEqual(await codes([png(800, 600)], {}), ['option_required']);
    assert.deepEqual(await codes([]), ['media_required']);
    assert.deepEqual(await codes([png(800, 600), png(800, 600, 'b.png')]), ['too_many_media']);
    const pdf = memoryMedia(new Uint8Array(samplePdf()), {
      filename: 'a.pdf',
      contentType: 'application/pdf',
    });
    assert.deepEqual(await codes([pdf]), ['media_type_unsupported']);
    const big = { ...png(800, 600), size: 9 * 1024 * 1024 };
    assert.deepEqual(await codes([big]), ['media_too_large']);
    assert.equal(
      dribbbleOptionsSchema.safeParse({ title: 'x', tags: Array.from({ length: 13 }, (_, i) => `t${i}`) })
        .success,
      false,
    );
  });
});

describe('Dribbble publishing', () => {
  it('uploads the shot (202 with Location), then polls until it exists', async () => {
    const result = await fx.publisher.publish(
      { message: 'A dashboard for **plants**.' },
      account(),
      [png(800, 600)],
      dribbbleOptionsSchema.parse({ title: 'Plant dashboard', tags: 'ui, dashboard' }),
      context(),
    );
    const shot = fake().shots[0]!;
    assert.deepEqual(
      [shot.title, shot.description, shot.tags, shot.width, shot.height],
      ['Plant dashboard', 'A dashboard for **plants**.', ['ui', 'dashboard'], 800, 600],
    );
    assert.equal(fake().requests('POST', /^\/v2\/shots$/).length, 1);
    assert.equal(
      fake().requests('GET', /^\/v2\/shots\/\d+$/).length,
      3,
      'two 404s while processing, then the shot',
    );
    assert.deepEqual(result, {
      platformPostId: String(shot.id),
      url: `https://dribbble.com/shots/${shot.id}-plant-dashboard`,
    });
    assert.equal(fake().server.requests[0]!.headers.authorization, `Bearer ${fx.token}`);
  });

  it('refuses an image of the wrong dimensions before anything is sent', async () => {
    const refused = await rejection(
      fx.publisher.publish({ message: 'x' }, account(), [png(1000, 1000)], { title: 'Square' }, context()),
    );
    assert.deepEqual([refused.code, refused.retryable], ['media_rejected', false]);
    assert.equal(fake().server.requests.length, 0);
  });

  it('a shot still processing when the wait ends is waited for again, never uploaded twice', async () => {
    fake().processingPolls = 1000;
    const short = createDribbblePublisher({ ...fx.config, processingTimeoutMs: 60 });
    const ctx = context();
    const late = await rejection(
      short.publish({ message: 'x' }, account(), [png(800, 600)], { title: 'Slow' }, ctx),
    );
    assert.deepEqual([late.code, late.retryable], ['timeout', true]);
    fake().shots[0]!.pendingPolls = 0;
    const result = await short.publish({ message: 'x' }, account(), [png(800, 600)], { title: 'Slow' }, ctx);
    assert.equal(fake().requests('POST', /^\/v2\/shots$/).length, 1);
    assert.equal(result.platformPostId, String(fake().shots[0]!.id));
  });

  it('an answer lost after Dribbble accepted the upload is found among the user’s shots by title', async () => {
    fake().processingPolls = 0;
    let cut = true;
    const original = globalThis.fetch;
    globalThis.fetch = async (input, init) => {
      const response = await original(input, init);
      if (cut && init?.method === 'POST') {
        cut = false;
        throw new TypeError('socket hang up');
      }
      return response;
    };
    try {
      const ctx = context({ idempotencyKey: 'lost:dr-1' });
      await rejection(
        fx.publisher.publish({ message: 'x' }, account(), [png(800, 600)], { title: 'Lost once' }, ctx),
      );
      const again = await fx.publisher.publish(
        { message: 'x' },
        account(),
        [png(800, 600)],
        { title: 'Lost once' },
        ctx,
      );
      assert.equal(fake().shots.length, 1);
      assert.equal(again.platformPostId, String(fake().shots[0]!.id));
    } finally {
      globalThis.fetch = original;
    }
  });

  it('classifies refusals: revoked token, no upload scope, rate limit with its reset, 5xx', async () => {
    const noScope = fake().issueToken(['public']);
    const scope = await rejection(
      fx.publisher.publish({ message: 'x' }, account(noScope), [png(800, 600)], { title: 'T' }, context()),
    );
    assert.deepEqual([scope.code, scope.retryable], ['target_unreachable', false]);
    fake().rateLimit(3);
    const limited = await rejection(
      fx.publisher.publish({ message: 'x' }, account(), [png(800, 600)], { title: 'T' }, context()),
    );
    assert.equal(limited.code, 'rate_limited');
    assert.ok(limited.retryAfterMs! > 1000 && limited.retryAfterMs! <= 4000, String(limited.retryAfterMs));
    fake().server.inject({ status: 503, text: 'Service Unavailable' });
    const down = await rejection(
      fx.publisher.publish({ message: 'x' }, account(), [png(800, 600)], { title: 'T' }, context()),
    );
    assert.deepEqual([down.code, down.retryable], ['platform_unavailable', true]);
    const revoked = await rejection(
      fx.publisher.publish({ message: 'x' }, account('gone'), [png(800, 600)], { title: 'T' }, context()),
    );
    assert.deepEqual([revoked.code, revoked.retryable], ['needs_reconnect', false]);
    assert.equal(
      (await rejection(fx.publisher.verifyCredentials(account('gone')))).code,
      'credentials_invalid',
    );
    assert.equal(fake().shots.length, 0);
  });
});

describe('Dribbble OAuth', () => {
  it('consent with public and upload scopes, the code exchanged with the secret, the user as the account', async () => {
    const connector = createDribbbleConnector(fx.config);
    assert.equal(connector.configured, true);
    const redirectUri = 'https://postwave.example/api/v1/accounts/connect/dribbble/callback';
    const consent = new URL(connector.authorizeUrl({ state: 'st-1', redirectUri }));
    assert.equal(consent.origin + consent.pathname, `${fake().url}/oauth/authorize`);
    assert.equal(consent.searchParams.get('scope'), 'public upload');
    const back = await fetch(consent, { redirect: 'manual' });
    const callback = new URL(back.headers.get('location')!);
    assert.equal(callback.searchParams.get('state'), 'st-1');
    const [connected] = await connector.exchangeCode({
      code: callback.searchParams.get('code')!,
      redirectUri,
      signal: AbortSignal.timeout(5000),
    });
    assert.equal(connected!.platformAccountId, '8421');
    assert.deepEqual([connected!.profile.name, connected!.profile.username], ['Alice Designer', 'alice']);
    const profile = await fx.publisher.verifyCredentials({
      ...account(),
      credentials: connected!.credentials,
    });
    assert.equal(profile.platformAccountId, '8421');
    const reused = await rejection(
      connector.exchangeCode({
        code: callback.searchParams.get('code')!,
        redirectUri,
        signal: AbortSignal.timeout(5000),
      }),
    );
    assert.equal(reused.code, 'credentials_invalid');
    assert.equal(createDribbbleConnector(dribbbleConfigFromEnv({})).configured, false);
  });
});
