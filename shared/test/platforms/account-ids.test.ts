import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PublisherRegistry } from '../../src/platforms/registry.ts';

/**
 * Contract C's platform account ids, where the platform fixes their form: a mistyped one is
 * `account_invalid` at `platformAccountId` at validation (before any target is sent), one issue
 * naming the form, and a well-formed one passes.
 */
describe('platform account ids checked at validation', () => {
  const publishers = PublisherRegistry.fromEnv({ NEYNAR_API_KEY: 'test-key' });
  const cases: Record<string, { good: string[]; bad: string[] }> = {
    threads: { good: ['25000000000000001'], bad: ['@alice', 'alice', '123 '] },
    pinterest: { good: ['549755885176'], bad: ['Travel', 'pinterest.com/alice/travel', '-1'] },
    twitch: { good: ['141981764'], bad: ['alicestreams', '#alicestreams'] },
    farcaster: { good: ['1042'], bad: ['@alice', '0', 'alice.eth', '1042.5'] },
    facebook: { good: ['104589372918'], bad: ['postwave', 'facebook.com/postwave'] },
    instagram: { good: ['17841400000000000'], bad: ['@postwave'] },
    linkedin: { good: ['urn:li:organization:2414183'], bad: ['postwave', '2414183'] },
    matrix: {
      good: ['!abc:example.org', '#room:example.org'],
      bad: ['room', 'https://matrix.to/#/#room:example.org'],
    },
    slack: { good: ['C0123456789'], bad: ['#general', 'general'] },
    reddit: { good: ['postwave', 'u_alice'], bad: ['r/postwave', '/r/postwave'] },
    google_business: { good: ['accounts/1/locations/2'], bad: ['locations/2', 'My shop'] },
    tumblr: {
      good: ['alice-art', 'alice-art.tumblr.com', 'blog.example.com', 't:abc_DEF-123'],
      bad: ['@alice', 'https://alice.tumblr.com/', 'alice art', ''],
    },
  };

  const issuesFor = async (platform: string, platformAccountId: string) => {
    const publisher = publishers.get(platform)!;
    const outcome = await publisher.validate(
      { message: 'Hello' },
      { id: 'a1', platform, platformAccountId, credentials: {} },
      [],
      {},
    );
    return outcome.errors.filter((issue) => issue.code === 'account_invalid');
  };

  for (const [platform, { good, bad }] of Object.entries(cases)) {
    it(`${platform}: a mistyped id is account_invalid at platformAccountId, a well-formed one passes`, async () => {
      for (const id of bad) {
        const [issue, ...more] = await issuesFor(platform, id);
        assert.equal(issue?.path, 'platformAccountId', `${platform} ${JSON.stringify(id)}`);
        assert.match(issue!.message, /platformAccountId is /);
        assert.equal(more.length, 0);
      }
      for (const id of good) assert.deepEqual(await issuesFor(platform, id), [], `${platform} ${id}`);
    });
  }
});
