import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { PublisherRegistry } from '../../../src/platforms/registry.ts';
import type { PlatformAccount } from '../../../src/platforms/types.ts';
import { xModule } from '../../../src/platforms/x/index.ts';
import { PostingService } from '../../../src/publish/posting.ts';
import { LocalStorage } from '../../../src/storage/local.ts';
import { samplePng } from '../../fakes/sample-media.ts';
import { type FakeX, startFakeX, xProblem } from '../../fakes/x.ts';
import { fastRetries } from '../../support/platform-testing.ts';

describe('PostingService with X', () => {
  let fake: FakeX;
  let directory: string;
  let service: PostingService;
  let account: PlatformAccount;

  before(async () => {
    fake = await startFakeX();
    directory = await mkdtemp(join(tmpdir(), 'postwave-x-'));
    const storage = new LocalStorage({
      directory,
      publicBaseUrl: 'http://media.test',
      signingSecret: 'test-secret',
    });
    await storage.put('p.png', Readable.from([samplePng()]), { contentType: 'image/png', maxBytes: 1e6 });
    service = new PostingService({ publishers: PublisherRegistry.fromEnv(fake.env(), [xModule]), storage });
    account = {
      id: 'x1',
      platform: 'x',
      platformAccountId: fake.user.id,
      credentials: fake.credentials({ expiresInSeconds: 10 }),
    };
  });
  after(async () => {
    await fake.close();
    await rm(directory, { recursive: true, force: true });
  });
  const lookup = (id: string) => (id === account.id ? account : undefined);

  it('refuses an invalid post before anything reaches X', async () => {
    const prepared = await service.prepare(
      {
        message: 'a'.repeat(281),
        accountIds: ['x1'],
        media: [],
        accountOptions: { x1: { replySettings: 'nobody' } },
      },
      lookup,
    );
    assert.equal(prepared.validation.valid, false);
    assert.deepEqual(
      prepared.validation.results[0]!.errors.map((e) => e.code),
      ['invalid_option'],
    );
    const tooLong = await service.prepare(
      { message: 'a'.repeat(281), accountIds: ['x1'], media: [] },
      lookup,
    );
    assert.deepEqual(
      tooLong.validation.results[0]!.errors.map((e) => e.code),
      ['text_too_long'],
    );
    assert.equal(fake.server.requests.length, 0);
  });

  it('stores the rotated refresh token, and a retry after a 503 uses it rather than the spent one', async () => {
    const stored: [string, Record<string, unknown>][] = [];
    fake.server.inject({
      path: /^\/2\/tweets$/,
      ...xProblem(503, 'Service Unavailable', 'Service Unavailable'),
    });
    const prepared = await service.prepare(
      { message: 'Through the posting service', accountIds: ['x1'], media: [{ key: 'p.png' }] },
      lookup,
    );
    assert.equal(prepared.validation.valid, true, JSON.stringify(prepared.validation));
    const [result] = await service.publish(prepared, {
      retryPolicy: fastRetries(),
      onCredentialsRefreshed: (accountId, credentials) => void stored.push([accountId, credentials]),
    });
    assert.equal(result?.status, 'posted', JSON.stringify(result));
    assert.equal(stored.length, 1);
    assert.equal(stored[0]![0], 'x1');
    assert.notEqual(stored[0]![1].refreshToken, account.credentials.refreshToken);
    assert.equal(fake.requestsTo('POST', /^\/2\/oauth2\/token$/).length, 1);
    assert.equal(fake.requestsTo('POST', /initialize$/).length, 1, 'the image is uploaded once');
  });
});
