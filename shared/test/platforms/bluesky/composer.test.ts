import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PublishContext, PublishResult } from '../../../src/platforms/types.ts';
import { sampleJpeg, sampleMp4 } from '../../fakes/sample-media.ts';
import { memoryMedia } from '../memory-media.ts';
import { account, blueskyFixture, context, publisherFor, rejection } from './setup.ts';

const fx = blueskyFixture();

const replyTo = (parent: PublishResult, root: PublishResult = parent) => ({ replyTo: { parent, root } });
const reply = (index: number) =>
  fx.fake.records[index]!.value.reply as Record<string, { uri: string; cid: string }>;

describe('Bluesky threads and first comments (replies)', () => {
  it('every post returns its strong ref as replyRef', async () => {
    const result = await fx.publisher.publish({ message: 'root' }, account(), [], {}, context());
    assert.deepEqual(JSON.parse(result.replyRef!), {
      uri: fx.fake.records[0]!.uri,
      cid: fx.fake.records[0]!.cid,
    });
  });

  it('publishes a thread as a reply chain: root and parent strong refs from the stored replyRefs', async () => {
    const root = await fx.publisher.publish({ message: 'part 1' }, account(), [], {}, context());
    const second = await fx.publisher.publish(
      { message: 'part 2' },
      account(),
      [],
      {},
      { ...context(), ...replyTo(root) },
    );
    await fx.publisher.publish(
      { message: 'part 3' },
      account(),
      [],
      {},
      { ...context(), ...replyTo(second, root) },
    );

    const [first, middle] = fx.fake.records;
    assert.equal(fx.fake.records[0]!.value.reply, undefined);
    assert.deepEqual(reply(1), {
      root: { uri: first!.uri, cid: first!.cid },
      parent: { uri: first!.uri, cid: first!.cid },
    });
    assert.deepEqual(reply(2), {
      root: { uri: first!.uri, cid: first!.cid },
      parent: { uri: middle!.uri, cid: middle!.cid },
    });
    // No extra reads: the CIDs came from the results.
    assert.equal(fx.fake.calls('com.atproto.repo.getRecord').length, 0);
  });

  it('a parent without replyRef (published before replies existed) is read back with getRecord', async () => {
    const root = await fx.publisher.publish({ message: 'old post' }, account(), [], {}, context());
    const legacy = { platformPostId: root.platformPostId, ...(root.url ? { url: root.url } : {}) };
    await fx.publisher.publish(
      { message: 'first comment' },
      account(),
      [],
      {},
      { ...context(), ...replyTo(legacy) },
    );
    assert.equal(fx.fake.calls('com.atproto.repo.getRecord').length, 2);
    assert.equal(reply(1).parent!.cid, fx.fake.records[0]!.cid);
  });

  it('refuses to reply to a deleted post it must read back, without posting', async () => {
    const root = await fx.publisher.publish({ message: 'soon gone' }, account(), [], {}, context());
    fx.fake.deleteRecord(root.platformPostId);
    const error = await rejection(
      fx.publisher.publish(
        { message: 'orphan' },
        account(),
        [],
        {},
        { ...context(), ...replyTo({ platformPostId: root.platformPostId }) },
      ),
    );
    assert.equal(error.code, 'content_rejected');
    assert.equal(error.retryable, false);
    assert.match(error.message, /no longer exists/);
    assert.equal(fx.fake.calls('com.atproto.repo.createRecord').length, 1);
  });

  it('the PDS refuses a malformed strong ref with InvalidRequest', async () => {
    const root = await fx.publisher.publish({ message: 'root' }, account(), [], {}, context());
    const broken = { ...root, replyRef: JSON.stringify({ uri: root.platformPostId, cid: 'not-a-cid' }) };
    const error = await rejection(
      fx.publisher.publish({ message: 'bad ref' }, account(), [], {}, { ...context(), ...replyTo(broken) }),
    );
    assert.equal(error.code, 'content_rejected');
    assert.match(error.message, /cid/);
    assert.equal(fx.fake.records.length, 1);
  });

  it('a reply part resumed after a crash finds its record by the stored key, with its replyRef', async () => {
    const root = await fx.publisher.publish({ message: 'root' }, account(), [], {}, context());
    const handle = fx.publisher.dedupeHandle();
    fx.fake.loseCreateRecordAnswer();
    const part: PublishContext = { ...context('thread-part-1'), dedupeHandle: handle, ...replyTo(root) };
    await assert.rejects(fx.publisher.publish({ message: 'part 2' }, account(), [], {}, part));
    const successor = publisherFor(fx.fake);
    const result = await successor.publish(
      { message: 'part 2' },
      account(),
      [],
      {},
      { ...part, signal: AbortSignal.timeout(10_000), resumed: { since: new Date() } },
    );
    assert.equal(fx.fake.records.length, 2);
    assert.ok(result.platformPostId.endsWith(`/${handle}`));
    assert.deepEqual(JSON.parse(result.replyRef!), {
      uri: fx.fake.records[1]!.uri,
      cid: fx.fake.records[1]!.cid,
    });
  });
});

describe('Bluesky alt text', () => {
  const jpeg = (name: string, altText?: string) => ({
    ...memoryMedia(new Uint8Array(sampleJpeg()), { filename: name, contentType: 'image/jpeg' }),
    ...(altText === undefined ? {} : { altText }),
  });

  it("sends each image's altText as its alt, ahead of the older altTexts option", async () => {
    await fx.publisher.publish(
      { message: 'pictures' },
      account(),
      [jpeg('a.jpg', 'A red bicycle'), jpeg('b.jpg'), jpeg('c.jpg')],
      { altTexts: ['ignored', 'From the option'] },
      context(),
    );
    const embed = fx.fake.records[0]!.value.embed as { images: { alt: string }[] };
    assert.deepEqual(
      embed.images.map((i) => i.alt),
      ['A red bicycle', 'From the option', ''],
    );
  });

  it("sends a video's altText as the video embed's alt", async () => {
    const video = {
      ...memoryMedia(new Uint8Array(sampleMp4()), { filename: 'clip.mp4', contentType: 'video/mp4' }),
      altText: 'Waves on a beach',
    };
    await fx.publisher.publish({ message: 'clip' }, account(), [video], {}, context());
    assert.equal((fx.fake.records[0]!.value.embed as { alt: string }).alt, 'Waves on a beach');
  });

  it('validation refuses a video alt text over the lexicon’s 1000 graphemes; the PDS refuses it too', async () => {
    const video = (altText: string) => ({
      ...memoryMedia(new Uint8Array(sampleMp4()), { filename: 'clip.mp4', contentType: 'video/mp4' }),
      altText,
    });
    const ok = await fx.publisher.validate({ message: 'clip' }, account(), [video('👍'.repeat(1000))], {});
    assert.deepEqual(ok.errors, []);
    const long = await fx.publisher.validate({ message: 'clip' }, account(), [video('a'.repeat(1001))], {});
    assert.deepEqual(
      long.errors.map((e) => [e.code, e.path]),
      [['alt_text_too_long', 'media.0.altText']],
    );
    const error = await rejection(
      fx.publisher.publish({ message: 'clip' }, account(), [video('a'.repeat(1001))], {}, context()),
    );
    assert.equal(error.code, 'content_rejected');
    assert.match(error.message, /1000 graphemes/);
  });

  it('accepts firstComment as an option (the posting service sends it as a reply)', async () => {
    const parsed = fx.publisher.optionsSchema.parse({ firstComment: 'More in the replies' });
    assert.equal(parsed.firstComment, 'More in the replies');
    const outcome = await fx.publisher.validate({ message: 'hi' }, account(), [], parsed);
    assert.deepEqual(outcome.errors, []);
  });
});
