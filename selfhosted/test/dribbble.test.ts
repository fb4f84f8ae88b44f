import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FakeDribbble, pngOfSize, startFakeDribbble } from '@postwave/shared/testing';
import { startTestServer, type TestServer } from './helpers.ts';

/** The self-hosted server publishing Dribbble shots (the fake, at DRIBBBLE_API_URL) from its accounts file. */
describe('self-hosted: Dribbble', () => {
  let dribbble: FakeDribbble;
  let server: TestServer;
  before(async () => {
    dribbble = await startFakeDribbble();
    dribbble.processingPolls = 1;
    server = await startTestServer({
      accounts: [
        {
          id: 'shots',
          platform: 'dribbble',
          platformAccountId: String(dribbble.user.id),
          credentials: { accessToken: dribbble.issueToken() },
        },
      ],
      env: dribbble.env(),
    });
  });
  after(async () => {
    await server?.close();
    await dribbble?.close();
  });

  const upload = async (width: number, height: number) => {
    const form = new FormData();
    form.append(
      'file',
      new Blob([new Uint8Array(pngOfSize(width, height))], { type: 'image/png' }),
      'shot.png',
    );
    const response = await server.api('/api/v1/upload', { method: 'POST', body: form });
    assert.equal(response.status, 201);
    return ((await response.json()) as { media: { url: string } }).media;
  };

  it('refuses a square image, a missing title and a missing image before anything is sent', async () => {
    const post = async (body: Record<string, unknown>) => {
      const response = await server.api('/api/v1/posts', {
        json: { message: 'About it', accountIds: ['shots'], postingMode: 'now', ...body },
      });
      assert.equal(response.status, 422);
      return ((await response.json()) as { errors: { code: string; path?: string }[] }).errors;
    };
    const square = await post({
      media: [await upload(1000, 1000)],
      accountOptions: { shots: { title: 'Square' } },
    });
    assert.deepEqual(
      square.map((e) => [e.code, e.path]),
      [['media_dimensions_invalid', 'media[0]']],
    );
    const untitled = await post({ media: [await upload(800, 600)] });
    assert.deepEqual(
      untitled.map((e) => [e.code, e.path]),
      [['option_required', 'accountOptions.shots.title']],
    );
    const bare = await post({ accountOptions: { shots: { title: 'Nothing' } } });
    assert.ok(
      bare.some((e) => e.code === 'media_required'),
      JSON.stringify(bare),
    );
    assert.equal(dribbble.requests('POST', /^\/v2\/shots$/).length, 0);
  });

  it('publishes a shot: 202, then the shot once it exists', async () => {
    const media = await upload(1600, 1200);
    const response = await server.api('/api/v1/posts', {
      json: {
        message: 'Onboarding screens for a plant app.',
        accountIds: ['shots'],
        postingMode: 'now',
        media: [media],
        accountOptions: { shots: { title: 'Plant onboarding', tags: 'ui, mobile' } },
      },
    });
    const body = (await response.json()) as { results: Record<string, unknown>[] };
    assert.equal(response.status, 200, JSON.stringify(body));
    const shot = dribbble.shots[0]!;
    assert.deepEqual(
      [shot.title, shot.description, shot.tags, shot.width, shot.height],
      ['Plant onboarding', 'Onboarding screens for a plant app.', ['ui', 'mobile'], 1600, 1200],
    );
    assert.equal(body.results[0]!.platformPostId, String(shot.id));
    assert.match(String(body.results[0]!.url), /^https:\/\/dribbble\.com\/shots\//);
  });
});
