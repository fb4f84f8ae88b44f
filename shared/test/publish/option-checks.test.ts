import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { PlatformError } from '../../src/errors.ts';
import type { OptionChoice, OptionField } from '../../src/platforms/manifest.ts';
import {
  checkOptionChoices,
  fetchOptionChoices,
  OptionChoicesCache,
  optionChoicesKey,
} from '../../src/platforms/option-choices.ts';
import { PublisherRegistry } from '../../src/platforms/registry.ts';
import type { AnyPublisher, PlatformAccount } from '../../src/platforms/types.ts';
import { PostingService } from '../../src/publish/posting.ts';
import { MemoryStorage } from '../platforms/telegram/memory-storage.ts';

/*
 * The option rules every platform gets from its manifest (contract section C), through the
 * posting service: hidden fields' values are dropped before parsing, shown required fields are
 * required, and a `choicesFrom` value must be one the platform offers for the account.
 */

const fields: OptionField[] = [
  { name: 'board', label: 'Board', type: 'select', required: true, choicesFrom: {} },
  { name: 'section', label: 'Section', type: 'select', choicesFrom: { dependsOn: 'board' } },
  { name: 'flair', label: 'Flair', type: 'text', choicesFrom: { allowCustom: true } },
  { name: 'kind', label: 'Kind', type: 'select', choices: [{ value: 'event', label: 'Event' }] },
  {
    name: 'event.title',
    label: 'Event title',
    type: 'text',
    required: true,
    showWhen: { field: 'kind', equals: 'event' },
  },
];

const boards: Record<string, OptionChoice[]> = {
  acc: [
    { value: 'b1', label: 'Recipes' },
    { value: 'b2', label: 'Travel' },
  ],
};
const sections: Record<string, OptionChoice[]> = { b1: [{ value: 's1', label: 'Soups' }] };

function setup(options: { fail?: PlatformError } = {}) {
  const asked: { field: string; values: Record<string, string> }[] = [];
  const published: Record<string, unknown>[] = [];
  const publisher: AnyPublisher = {
    id: 'boards',
    displayName: 'Boards',
    optionsSchema: z.strictObject({
      board: z.string().optional(),
      section: z.string().optional(),
      flair: z.string().optional(),
      kind: z.literal('event').optional(),
      // Strict: a stale hidden value would be refused here if it reached the schema.
      event: z.strictObject({ title: z.string().min(1) }).optional(),
    }),
    credentialsSchema: z.object({}),
    concurrency: 2,
    validate: async () => ({ errors: [], warnings: [] }),
    optionChoices: async (account, field, values) => {
      asked.push({ field, values: { ...values } });
      if (options.fail) throw options.fail;
      if (field === 'board') return boards[account.platformAccountId] ?? [];
      if (field === 'section') return sections[values.board ?? ''] ?? [];
      return [];
    },
    publish: async (_post, _account, _media, opts) => {
      published.push(opts);
      return { platformPostId: '1' };
    },
    verifyCredentials: async () => ({ name: 'Boards' }),
  };
  const registry = new PublisherRegistry(
    [publisher],
    [
      [
        'boards',
        {
          features: { thread: false, firstComment: false, altText: null },
          options: fields,
        },
      ],
    ],
  );
  const service = new PostingService({ publishers: registry, storage: new MemoryStorage() });
  const account: PlatformAccount = {
    id: 'a1',
    platform: 'boards',
    platformAccountId: 'acc',
    credentials: {},
  };
  const prepare = (accountOptions: Record<string, unknown>) =>
    service.prepare(
      { message: 'hi', accountIds: ['a1'], media: [], accountOptions: { a1: accountOptions } },
      () => account,
    );
  return { asked, published, prepare, service, publisher, account };
}

describe('option fields in validation', () => {
  it('accepts offered choices, and asks for dependent choices with the field they depend on', async () => {
    const { prepare, asked } = setup();
    const prepared = await prepare({ board: 'b1', section: 's1', flair: 'anything I like' });
    assert.equal(prepared.validation.valid, true, JSON.stringify(prepared.validation));
    assert.deepEqual(asked.map((a) => a.field).sort(), ['board', 'section']);
    assert.equal(asked.find((a) => a.field === 'section')!.values.board, 'b1');
  });

  it('refuses a value the platform does not offer, naming the field', async () => {
    const { prepare } = setup();
    const { validation } = await prepare({ board: 'b9', section: 's1' });
    assert.equal(validation.valid, false);
    const errors = validation.results[0]!.errors;
    assert.deepEqual(
      errors.map((e) => [e.code, e.path]),
      [
        ['option_not_offered', 'accountOptions.a1.board'],
        ['option_not_offered', 'accountOptions.a1.section'],
      ],
    );
    assert.match(errors[0]!.message, /Board: “b9” is not among the choices Boards offers/);
  });

  it('requires a shown required field, and ignores and drops the values of hidden ones', async () => {
    const { prepare, published, service } = setup();
    const missing = await prepare({ kind: 'event' });
    assert.deepEqual(
      missing.validation.results[0]!.errors.map((e) => [e.code, e.path]),
      [
        ['option_required', 'accountOptions.a1.board'],
        ['option_required', 'accountOptions.a1.event.title'],
      ],
    );
    // The event is hidden without `kind: event`: its (invalid, strict-refused) value is dropped.
    const hidden = await prepare({ board: 'b2', event: { title: '', extra: true } });
    assert.equal(hidden.validation.valid, true, JSON.stringify(hidden.validation));
    await service.publish(hidden, { idempotencyKey: 'p' });
    assert.deepEqual(published, [{ board: 'b2' }]);
  });

  it('lets a value through with a warning when the choices cannot be loaded', async () => {
    const { prepare } = setup({ fail: new PlatformError('platform_unavailable', 'down') });
    const { validation } = await prepare({ board: 'b9' });
    assert.equal(validation.valid, true);
    assert.deepEqual(
      validation.results[0]!.warnings.map((w) => [w.code, w.path]),
      [['option_choices_unavailable', 'accountOptions.a1.board']],
    );
  });

  it('asks the platform once a minute per account, field and dependsOn value', async () => {
    const { prepare, asked } = setup();
    await prepare({ board: 'b1' });
    await prepare({ board: 'b1' });
    assert.equal(asked.length, 1);
    await prepare({ board: 'b1', section: 's1' });
    assert.equal(asked.length, 2, 'the section list is another key');
  });

  it('reports each issue once when a publisher runs the shared check in its own validate too', async () => {
    const { publisher, account, prepare } = setup();
    publisher.validate = async (_post, acc, _media, options) =>
      checkOptionChoices({
        publisher,
        account: acc,
        fields,
        options,
        load: ({ field, values }) =>
          fetchOptionChoices(publisher, account, field, values, {
            signal: AbortSignal.timeout(1000),
            logger: { debug() {}, info() {}, warn() {}, error() {} },
          }),
      });
    const { validation } = await prepare({ board: 'nope' });
    assert.equal(validation.results[0]!.errors.length, 1);
  });
});

describe('choices answers', () => {
  it('keep string values once, label them, and cap the list', async () => {
    const { publisher, account } = setup();
    publisher.optionChoices = async () =>
      [
        { value: 'a', label: ' Alpha ' },
        { value: 'a', label: 'again' },
        { value: 'b', label: '' },
        { value: 3, label: 'number' },
        null,
        ...Array.from({ length: 2000 }, (_, i) => ({ value: `v${i}`, label: `V${i}` })),
      ] as unknown as OptionChoice[];
    const choices = await fetchOptionChoices(
      publisher,
      account,
      fields[0]!,
      {},
      {
        signal: AbortSignal.timeout(1000),
        logger: { debug() {}, info() {}, warn() {}, error() {} },
      },
    );
    assert.deepEqual(choices.slice(0, 2), [
      { value: 'a', label: 'Alpha' },
      { value: 'b', label: 'b' },
    ]);
    assert.equal(choices.length, 1000);
  });

  it('are cached per key, shared while in flight, and not kept when they fail', async () => {
    const cache = new OptionChoicesCache({ ttlMs: 1000 });
    let calls = 0;
    const load = async () => {
      calls++;
      return [{ value: 'x', label: 'X' }];
    };
    await Promise.all([cache.get('k', load, 0), cache.get('k', load, 10)]);
    assert.equal(calls, 1);
    await cache.get('k', load, 2000);
    assert.equal(calls, 2, 'expired');
    await assert.rejects(cache.get('f', async () => Promise.reject(new Error('down')), 0));
    await new Promise((r) => setImmediate(r));
    assert.equal(cache.has('f', 1), false);
    const key = optionChoicesKey({ id: 'a', platform: 'p', platformAccountId: 'x' }, fields[1]!, {
      board: 'b1',
      other: '1',
    });
    assert.equal(
      key,
      optionChoicesKey({ id: 'a', platform: 'p', platformAccountId: 'x' }, fields[1]!, { board: 'b1' }),
    );
    assert.notEqual(
      key,
      optionChoicesKey({ id: 'a', platform: 'p', platformAccountId: 'x' }, fields[1]!, { board: 'b2' }),
    );
  });
});
