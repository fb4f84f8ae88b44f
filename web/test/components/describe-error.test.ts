import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApiError, describeError, describeFormError } from '../../components/lib/api.ts';

const refused = new ApiError(422, {
  detail: 'The request is invalid',
  errors: [
    { path: 'timezone', code: 'invalid_timezone', message: 'Unknown time zone "Mars/Base"' },
    { path: 'slots', code: 'too_many', message: 'At most 50 slots' },
  ],
});

test('the summary names the first issue', () => {
  assert.equal(describeError(refused), 'The request is invalid (Unknown time zone "Mars/Base")');
  assert.equal(describeError(new Error('offline')), 'offline');
  assert.equal(describeError('nothing'), 'Something went wrong.');
});

test('a form that shows an issue beside its field does not repeat it in the summary', () => {
  assert.equal(
    describeFormError(refused, (path) => path === 'timezone'),
    'The request is invalid (At most 50 slots)',
  );
  assert.equal(
    describeFormError(refused, () => true),
    'The request is invalid',
  );
});
