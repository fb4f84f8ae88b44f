import assert from 'node:assert/strict';
import { test } from 'node:test';
import { collectionNotes, formatOffset, rangeProblem } from '#components/analytics/labels.ts';

test('the analytics page names a range problem as the API sees it', () => {
  const notDays = /calendar days/;
  // Days the calendar does not have: Date.parse would roll them over and call the range too long.
  assert.match(rangeProblem('2024-02-30', '2024-03-05'), notDays);
  assert.match(rangeProblem('0000-01-01', '0000-01-02'), notDays);
  assert.match(rangeProblem(undefined, '2026-13-01'), notDays);
  assert.match(rangeProblem('nope', undefined), notDays);
  assert.match(rangeProblem('2026-03-02', '2026-03-01'), /after the “To” day/);
  assert.match(rangeProblem('2024-01-01', '2026-01-01'), /too long/);
});

test('the post page names the configured collection offsets (ANALYTICS_COLLECT_AFTER)', () => {
  assert.deepEqual([3_600_000, 6 * 3_600_000, 86_400_000, 30 * 86_400_000, 90_000, 1500].map(formatOffset), [
    '1 h',
    '6 h',
    '1 d',
    '30 d',
    '90 s',
    '1500 ms',
  ]);
  assert.deepEqual(collectionNotes([3_600_000, 2 * 86_400_000, 10 * 86_400_000]), {
    collecting: 'Collected about 1 h, 2 d and 10 d after posting.',
    done: 'Final figures: collection ended 10 d after posting.',
  });
  assert.equal(collectionNotes([1000]).collecting, 'Collected about 1 s after posting.');
});
