import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detectFacets, resolveFacets } from '../../../src/platforms/bluesky/facets.ts';

/** The text a byte range covers, read the way Bluesky reads it: from the UTF-8 bytes. */
const covered = (text: string, index: { byteStart: number; byteEnd: number }) =>
  Buffer.from(text).subarray(index.byteStart, index.byteEnd).toString('utf8');

describe('Bluesky facet detection', () => {
  it('counts UTF-8 bytes, not UTF-16 units, before a link', () => {
    // The family emoji is 5 code points joined by ZWJ: 18 UTF-8 bytes, 8 UTF-16 units.
    const text = '👨‍👩‍👧 see https://example.com/path?q=1.';
    const [link] = detectFacets(text);
    assert.deepEqual(link, {
      kind: 'link',
      index: { byteStart: 23, byteEnd: 51 },
      uri: 'https://example.com/path?q=1',
    });
  });

  it('finds mentions and hashtags after emoji and accented text at exact byte offsets', () => {
    const text = 'Grüße 🎉 @Bob.test! #café, #1 #️⃣ x#no @nobody mail@x.com';
    const facets = detectFacets(text);
    assert.deepEqual(
      facets.map((f) => [f.kind, f.index.byteStart, f.index.byteEnd, covered(text, f.index)]),
      [
        // "Grüße " is 8 bytes (ü and ß take two each), "🎉 " five more.
        ['mention', 13, 22, '@Bob.test'],
        ['tag', 24, 30, '#café'],
      ],
    );
    assert.equal((facets[0] as { handle: string }).handle, 'bob.test');
    assert.equal((facets[1] as { tag: string }).tag, 'café');
  });

  it('keeps balanced parentheses in a link and leaves the closing one of the sentence out', () => {
    const text = 'Read (https://en.wikipedia.org/wiki/Fish_(food)) and https://a.example/x).';
    const links = detectFacets(text).map((f) => (f.kind === 'link' ? f.uri : ''));
    assert.deepEqual(links, ['https://en.wikipedia.org/wiki/Fish_(food)', 'https://a.example/x']);
  });

  it('does not link bare domains or non-web schemes', () => {
    assert.deepEqual(detectFacets('see example.com or ftp://files.example.com or https://localhost'), []);
  });

  it('resolves mention handles once each and drops the ones that do not resolve', async () => {
    const text = '@alice.test @ghost.test @alice.test';
    const asked: string[] = [];
    const facets = await resolveFacets(detectFacets(text), async (handle) => {
      asked.push(handle);
      return handle === 'alice.test' ? 'did:plc:alice' : undefined;
    });
    assert.deepEqual(asked.sort(), ['alice.test', 'ghost.test']);
    assert.deepEqual(facets, [
      {
        index: { byteStart: 0, byteEnd: 11 },
        features: [{ $type: 'app.bsky.richtext.facet#mention', did: 'did:plc:alice' }],
      },
      {
        index: { byteStart: 24, byteEnd: 35 },
        features: [{ $type: 'app.bsky.richtext.facet#mention', did: 'did:plc:alice' }],
      },
    ]);
  });
});
