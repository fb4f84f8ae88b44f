import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { appendUtm, findLinks, trackLinks } from '../../src/links/index.ts';

const utm = { source: '{platform}', medium: 'social', campaign: 'launch' };

describe('appendUtm', () => {
  test('appends source (the platform), medium and campaign, keeping the query and fragment', () => {
    assert.equal(
      appendUtm('https://ex.com/a?b=1&c=%20x#top', utm, 'mastodon'),
      'https://ex.com/a?b=1&c=%20x&utm_source=mastodon&utm_medium=social&utm_campaign=launch#top',
    );
    assert.equal(appendUtm('https://ex.com', { source: '{platform}' }, 'x'), 'https://ex.com?utm_source=x');
    assert.equal(appendUtm('https://ex.com/?', { medium: 'a b' }, 'x'), 'https://ex.com/?utm_medium=a%20b');
  });

  test('never duplicates a utm key the link already has (any case), nor touches other schemes', () => {
    assert.equal(
      appendUtm('https://ex.com/?UTM_SOURCE=news', utm, 'x'),
      'https://ex.com/?UTM_SOURCE=news&utm_medium=social&utm_campaign=launch',
    );
    for (const link of ['mailto:a@b.c', 'ftp://ex.com/f', 'example.com/a', 'javascript:alert(1)'])
      assert.equal(appendUtm(link, utm, 'x'), link);
    assert.equal(appendUtm('https://ex.com/', undefined, 'x'), 'https://ex.com/');
    assert.equal(appendUtm('https://ex.com/', { source: '  ', campaign: '' }, 'x'), 'https://ex.com/');
  });

  const settings = fc.record(
    {
      source: fc.oneof(fc.constant('{platform}'), fc.string({ maxLength: 12 })),
      medium: fc.string({ maxLength: 12 }),
      campaign: fc.string({ maxLength: 12 }),
    },
    { requiredKeys: [] },
  );
  const key = fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/).filter((k) => !k.startsWith('utm_'));
  const value = fc.stringMatching(/^[A-Za-z0-9%._~-]{0,10}$/);
  const links = fc
    .tuple(
      fc.webUrl({ withQueryParameters: false, withFragments: false }),
      fc.array(fc.tuple(key, value), { maxLength: 4 }),
      fc.option(fc.stringMatching(/^[a-z0-9]{1,8}$/), { nil: undefined }),
    )
    .map(([base, params, fragment]) => ({
      link: `${base}${params.length ? `?${params.map(([k, v]) => `${k}=${v}`).join('&')}` : ''}${fragment ? `#${fragment}` : ''}`,
      params,
    }));

  test('property: applying twice changes nothing the second time', () => {
    fc.assert(
      fc.property(links, settings, fc.constantFrom('x', 'bluesky', 'mastodon'), ({ link }, s, platform) => {
        const once = appendUtm(link, s, platform);
        assert.equal(appendUtm(once, s, platform), once);
      }),
    );
  });

  test('property: the other parameters keep their raw text and order; each utm key appears at most once', () => {
    fc.assert(
      fc.property(links, settings, ({ link, params }, s) => {
        const out = appendUtm(link, s, 'x');
        const hashAt = link.indexOf('#');
        const head = hashAt === -1 ? link : link.slice(0, hashAt);
        assert.ok(out.startsWith(head), `${out} keeps ${head}`);
        if (hashAt !== -1) assert.ok(out.endsWith(link.slice(hashAt)));
        const query = new URL(out).searchParams;
        const ownKeys = [...query.keys()].filter((k) => !k.startsWith('utm_'));
        assert.deepEqual(
          ownKeys,
          params.map(([k]) => k),
        );
        for (const k of ['utm_source', 'utm_medium', 'utm_campaign']) assert.ok(query.getAll(k).length <= 1);
        if (s.source?.trim())
          assert.equal(query.get('utm_source'), s.source.replaceAll('{platform}', 'x').trim());
      }),
    );
  });
});

describe('findLinks and trackLinks', () => {
  test('finds only http(s) links, without trailing punctuation', () => {
    const text =
      'See https://ex.com/a?b=1, (https://ex.org/p) and www.nope.com or mailto:me@ex.com 😀 http://ex.net.';
    assert.deepEqual(
      findLinks(text).map((l) => l.url),
      ['https://ex.com/a?b=1', 'https://ex.org/p', 'http://ex.net'],
    );
    for (const l of findLinks(text)) assert.equal(text.slice(l.start, l.end), l.url);
  });

  test('each distinct link is shortened once across message, parts and comment', async () => {
    const asked: string[] = [];
    const out = await trackLinks(
      ['A https://ex.com/a', 'B https://ex.com/a and https://ex.com/b', 'no links'],
      'x',
      {
        utm: { source: '{platform}' },
        shorten: async (long) => {
          asked.push(long);
          if (long.includes('/b')) throw new Error('down');
          return `https://s.test/${asked.length}`;
        },
      },
    );
    assert.deepEqual(asked.sort(), ['https://ex.com/a?utm_source=x', 'https://ex.com/b?utm_source=x']);
    assert.match(out.texts[0]!, /^A https:\/\/s\.test\/\d$/);
    assert.equal(out.texts[1], `B ${out.texts[0]!.slice(2)} and https://ex.com/b?utm_source=x`);
    assert.equal(out.texts[2], 'no links');
    const failed = out.links.find((l) => l.url === 'https://ex.com/b');
    assert.equal(failed?.warning?.code, 'link_not_shortened');
  });
});
