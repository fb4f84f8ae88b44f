import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rankBestTimes } from '../../src/analytics/best-times.ts';
import { engagementOf, nextCollection } from '../../src/analytics/metrics.ts';

describe('analytics arithmetic (contract section H)', () => {
  it('engagement adds what people did, and is undefined when nothing of it is reported', () => {
    assert.equal(
      engagementOf({ likes: 2, comments: 1, reposts: 1, quotes: 1, shares: 1, saves: 1, clicks: 3 }),
      10,
    );
    assert.equal(engagementOf({ views: 500, impressions: 800 }), undefined);
    assert.equal(engagementOf({ likes: 0 }), 0);
  });

  it('a collection moves to the first offset still ahead, and ends after the last', () => {
    const hour = 3_600_000;
    assert.deepEqual(nextCollection(0, 30 * 60_000), { step: 0, at: hour });
    assert.deepEqual(nextCollection(0, 2 * hour), { step: 1, at: 6 * hour });
    assert.deepEqual(nextCollection(0, 5 * 86_400_000), { step: 4, at: 7 * 86_400_000 });
    assert.equal(nextCollection(0, 31 * 86_400_000), undefined);
  });

  it('ranks hours by median engagement, and refuses below 20 posts', () => {
    const few = Array.from({ length: 19 }, () => ({ weekday: 1, hour: 9, engagement: 5 }));
    assert.deepEqual(rankBestTimes(few), { sampleSize: 19, slots: [], reason: 'insufficient_data' });
    const samples = [
      ...Array.from({ length: 10 }, (_, i) => ({ weekday: 1, hour: 9, engagement: 10 + i })),
      // One viral post does not make Tuesday 18:00 the best: its median is low.
      ...[1, 2, 1000].map((engagement) => ({ weekday: 2, hour: 18, engagement })),
      ...Array.from({ length: 7 }, () => ({ weekday: 5, hour: 12, engagement: 8 })),
    ];
    const ranked = rankBestTimes(samples);
    assert.equal(ranked.sampleSize, 20);
    assert.deepEqual(
      ranked.slots.map((s) => [s.weekday, s.hour, s.score, s.posts]),
      [
        [1, 9, 14.5, 10],
        [5, 12, 8, 7],
        [2, 18, 2, 3],
      ],
    );
  });
});
