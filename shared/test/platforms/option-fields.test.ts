import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { OptionField } from '../../src/platforms/manifest.ts';
import {
  activeOptionFields,
  getOptionValue,
  missingRequiredOptions,
  optionShown,
  optionValueMap,
  optionValueStrings,
  setOptionValue,
  visibleOptions,
} from '../../src/platforms/option-fields.ts';

/** A manifest's fields shaped like Google Business posts: a topic type and event/offer fields under it. */
const fields: OptionField[] = [
  {
    name: 'topicType',
    label: 'Post type',
    type: 'select',
    choices: [
      { value: 'STANDARD', label: 'Update' },
      { value: 'EVENT', label: 'Event' },
      { value: 'OFFER', label: 'Offer' },
    ],
  },
  {
    name: 'event.title',
    label: 'Event title',
    type: 'text',
    required: true,
    showWhen: { field: 'topicType', equals: 'EVENT' },
  },
  {
    name: 'event.start',
    label: 'Starts',
    type: 'datetime',
    showWhen: { field: 'topicType', equals: 'EVENT' },
  },
  {
    name: 'offer.couponCode',
    label: 'Coupon code',
    type: 'text',
    showWhen: { field: 'topicType', equals: 'OFFER' },
  },
  { name: 'hasLink', label: 'Add a link', type: 'boolean' },
  { name: 'link', label: 'Link', type: 'text', required: true, showWhen: { field: 'hasLink', equals: true } },
  { name: 'plain', label: 'Plain post', type: 'boolean', showWhen: { field: 'hasLink', equals: false } },
  // Shown only under a field that is itself conditional.
  {
    name: 'linkTitle',
    label: 'Link title',
    type: 'text',
    showWhen: { field: 'link', equals: 'https://a.example' },
  },
];

describe('dotted option names', () => {
  it('read and write nested option objects, leaving no empty object behind', () => {
    let values = setOptionValue({}, 'event.title', 'Launch');
    values = setOptionValue(values, 'event.start', '2030-01-01T10:00:00.000Z');
    assert.deepEqual(values, { event: { title: 'Launch', start: '2030-01-01T10:00:00.000Z' } });
    assert.equal(getOptionValue(values, 'event.title'), 'Launch');
    assert.equal(getOptionValue(values, 'event.missing'), undefined);
    assert.equal(getOptionValue({ event: 'flat' }, 'event.title'), undefined);
    values = setOptionValue(values, 'event.title', '');
    assert.deepEqual(values, { event: { start: '2030-01-01T10:00:00.000Z' } });
    assert.deepEqual(setOptionValue(values, 'event.start', undefined), {});
    const original = { topicType: 'EVENT' };
    setOptionValue(original, 'event.title', 'x');
    assert.deepEqual(original, { topicType: 'EVENT' }, 'the input is not changed');
  });
});

describe('showWhen', () => {
  it('shows a field only while its controlling field has the value', () => {
    const names = (values: Record<string, unknown>) => activeOptionFields(fields, values).map((f) => f.name);
    assert.deepEqual(names({ topicType: 'EVENT' }), [
      'topicType',
      'event.title',
      'event.start',
      'hasLink',
      'plain',
    ]);
    assert.deepEqual(names({ topicType: 'OFFER', hasLink: true }), [
      'topicType',
      'offer.couponCode',
      'hasLink',
      'link',
    ]);
    assert.ok(names({ hasLink: true, link: 'https://a.example' }).includes('linkTitle'));
    // The link field is hidden, so a field under it is hidden too, whatever the stale value says.
    assert.ok(!names({ hasLink: false, link: 'https://a.example' }).includes('linkTitle'));
  });

  it('treats an unset box as false, and compares numbers and strings by their text', () => {
    const plain = fields.find((f) => f.name === 'plain')!;
    assert.equal(optionShown(plain, {}), true);
    assert.equal(optionShown(plain, { hasLink: true }), false);
    const byNumber: OptionField = {
      name: 'x',
      label: 'X',
      type: 'text',
      showWhen: { field: 'n', equals: 2 },
    };
    assert.equal(optionShown(byNumber, { n: '2' }), true);
    assert.equal(optionShown(byNumber, {}), false);
  });

  it('shows a field for any value of a list (event fields of events and offers)', () => {
    const dates: OptionField = {
      name: 'event.start',
      label: 'Starts',
      type: 'datetime',
      showWhen: { field: 'topicType', equals: ['EVENT', 'OFFER'] },
    };
    assert.equal(optionShown(dates, { topicType: 'EVENT' }), true);
    assert.equal(optionShown(dates, { topicType: 'OFFER' }), true);
    assert.equal(optionShown(dates, { topicType: 'STANDARD' }), false);
    assert.equal(optionShown(dates, {}), false);
    assert.equal(optionShown({ ...dates, showWhen: { field: 'box', equals: [false, 'no'] } }, {}), true);
  });

  it('drops the values of hidden fields and keeps undeclared keys', () => {
    const values = {
      topicType: 'OFFER',
      event: { title: 'Stale', start: '2030-01-01T10:00:00.000Z' },
      offer: { couponCode: 'SAVE' },
      custom: 1,
    };
    assert.deepEqual(visibleOptions(fields, values), {
      topicType: 'OFFER',
      offer: { couponCode: 'SAVE' },
      custom: 1,
    });
  });

  it('requires a required field only while it is shown', () => {
    assert.deepEqual(missingRequiredOptions(fields, { topicType: 'STANDARD' }), []);
    assert.deepEqual(
      missingRequiredOptions(fields, { topicType: 'EVENT', hasLink: true, link: '  ' }).map((f) => f.name),
      ['event.title', 'link'],
    );
    assert.deepEqual(missingRequiredOptions(fields, { topicType: 'EVENT', event: { title: 'Launch' } }), []);
  });
});

describe('option values for choices', () => {
  it('flatten to strings by dotted name, lists as their items', () => {
    assert.deepEqual(
      optionValueMap({ board: 'b1', event: { title: 'T', count: 2 }, tags: ['a'], off: false }),
      {
        board: 'b1',
        'event.title': 'T',
        'event.count': '2',
        off: 'false',
      },
    );
    assert.deepEqual(optionValueStrings(['a', 2, '', null]), ['a', '2']);
    assert.deepEqual(optionValueStrings(undefined), []);
  });
});
