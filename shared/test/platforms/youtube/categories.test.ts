import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { silentLogger } from '../../../src/logger.ts';
import { PublisherRegistry } from '../../../src/platforms/registry.ts';
import { youTubeModule } from '../../../src/platforms/youtube/index.ts';
import { youTubeManifest } from '../../../src/platforms/youtube/manifest.ts';
import { PostingService } from '../../../src/publish/posting.ts';
import { MemoryStorage } from '../telegram/memory-storage.ts';
import { youTubeAccount, youTubeFixture } from './setup.ts';

/** The `categoryId` option's choices come from the channel: the categories YouTube lets it assign. */
describe('YouTube video categories', () => {
  const fx = youTubeFixture();
  const context = () => ({ signal: AbortSignal.timeout(10_000), logger: silentLogger });

  it('lists the assignable categories of the channel’s country, US when it names none', async () => {
    const { fake, publisher } = fx;
    const choices = await publisher.optionChoices!(youTubeAccount(fake), 'categoryId', {}, context());
    assert.ok(choices.some((c) => c.value === '22' && c.label === 'People & Blogs'));
    assert.ok(!choices.some((c) => c.value === '18'), 'Short Movies is not assignable');
    assert.deepEqual(fake.categoryRegions, ['US']);
    assert.equal(
      youTubeManifest.options.find((o) => o.name === 'categoryId')?.choicesFrom?.allowCustom,
      undefined,
    );
  });

  it('a refused token is needs_reconnect', async () => {
    const { fake, publisher } = fx;
    const revoked = youTubeAccount(fake, { ...fake.credentials(), refreshToken: '1//revoked' });
    await assert.rejects(publisher.optionChoices!(revoked, 'categoryId', {}, context()), {
      code: 'needs_reconnect',
    });
  });

  it('validation refuses a category the channel may not use, and accepts one it may', async () => {
    const { fake } = fx;
    const service = new PostingService({
      publishers: PublisherRegistry.fromEnv(fake.env(), [youTubeModule]),
      storage: new MemoryStorage(),
    });
    const account = youTubeAccount(fake);
    const check = (categoryId: string) =>
      service.prepare(
        {
          message: 'Clip',
          accountIds: [account.id],
          media: [],
          accountOptions: { [account.id]: { categoryId } },
        },
        () => account,
      );
    const refused = (await check('18')).validation.results[0]!.errors.find(
      (e) => e.code === 'option_not_offered',
    );
    assert.equal(refused?.path, `accountOptions.${account.id}.categoryId`);
    const accepted = (await check('28')).validation.results[0]!.errors;
    assert.ok(!accepted.some((e) => e.code === 'option_not_offered'), JSON.stringify(accepted));
  });
});
