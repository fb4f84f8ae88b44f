import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rangeProblem } from '#components/analytics/labels.ts';

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
