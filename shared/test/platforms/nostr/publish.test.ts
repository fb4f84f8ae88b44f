import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, beforeEach, describe, it } from 'node:test';
import { decode } from 'nostr-tools/nip19';
import { verifyEvent } from 'nostr-tools/pure';
import { createSafeFetch, parseAllowedPrivateHosts } from '../../../src/http/index.ts';
import { type FakeNostrRelay, startFakeNostrRelay } from '../../fakes/nostr-relay.ts';
import { samplePng } from '../../fakes/sample-media.ts';
import { memoryMedia } from '../memory-media.ts';
import { account, context, npub, pubkey, publisherFor, rejection } from './setup.ts';

describe('Nostr publishing', () => {
  let accepting: FakeNostrRelay;
  let refusing: FakeNostrRelay;
  let silent: FakeNostrRelay;
  let authing: FakeNostrRelay;
  before(async () => {
    [accepting, refusing, silent, authing] = await Promise.all([
      startFakeNostrRelay(),
      startFakeNostrRelay({ mode: 'refuse', refuseMessage: 'blocked: not on the allow list' }),
      startFakeNostrRelay({ mode: 'silent' }),
      startFakeNostrRelay({ requireAuth: true }),
    ]);
  });
  after(() => Promise.all([accepting, refusing, silent, authing].map((r) => r.close())));
  beforeEach(() => {
    for (const relay of [accepting, refusing, silent, authing]) {
      relay.events.length = 0;
      relay.frames.length = 0;
    }
  });

  it('signs a kind-1 note, sends it to every relay in parallel and reports each answer', async () => {
    const publisher = publisherFor({ relays: [accepting.url, refusing.url, silent.url] });
    const started = Date.now();
    const result = await publisher.publish({ message: 'Hello relays' }, account(), [], {}, context());
    assert.ok(Date.now() - started < 2_000, 'the silent relay costs one timeout, not a sequence of them');
    const event = accepting.events[0]!;
    assert.ok(verifyEvent(event));
    assert.deepEqual(
      { kind: event.kind, content: event.content, pubkey: event.pubkey, tags: event.tags },
      { kind: 1, content: 'Hello relays', pubkey, tags: [] },
    );
    assert.equal(result.platformPostId, event.id);
    assert.deepEqual(result.details?.relays, [
      { url: accepting.url, status: 'accepted' },
      { url: refusing.url, status: 'refused', message: 'blocked: not on the allow list' },
      { url: silent.url, status: 'timeout', message: 'no answer within 400 ms' },
    ]);
    assert.equal(silent.eventFrames.length, 1, 'the silent relay got the note too');
    const nevent = decode(result.url!.split('/').at(-1)!);
    assert.equal(nevent.type, 'nevent');
    assert.deepEqual((nevent.data as { id: string; relays: string[] }).relays, [accepting.url]);
    assert.match(result.url!, /^https:\/\/njump\.me\/nevent1/);
  });

  it('fails permanently when every relay refuses, naming each reason', async () => {
    const publisher = publisherFor({ relays: [refusing.url] });
    const error = await rejection(publisher.publish({ message: 'no' }, account(), [], {}, context()));
    assert.equal(error.code, 'content_rejected');
    assert.equal(error.retryable, false);
    assert.match(error.message, /blocked: not on the allow list/);
  });

  it('is a retryable timeout when the only relay never answers', async () => {
    const publisher = publisherFor({ relays: [silent.url, refusing.url] });
    const error = await rejection(publisher.publish({ message: 'quiet' }, account(), [], {}, context()));
    assert.equal(error.code, 'timeout');
    assert.equal(error.retryable, true);
  });

  it('a resend of the same intent signs the same event: relays answer duplicate and store one note', async () => {
    const publisher = publisherFor({ relays: [accepting.url] });
    const ctx = context();
    const first = await publisher.publish({ message: 'once' }, account(), [], {}, ctx);
    const again = await publisher.publish({ message: 'once' }, account(), [], {}, ctx);
    assert.equal(again.platformPostId, first.platformPostId);
    assert.equal(again.details?.relays?.[0]?.message, 'duplicate: already have this event');
    // Another process resuming the stored intent (its dedupe handle) builds the same id.
    const handle = publisher.dedupeHandle();
    const resumedCtx = context({ dedupeHandle: handle, resumed: { since: new Date() } });
    const a = await publisherFor({ relays: [accepting.url] }).publish(
      { message: 'x' },
      account(),
      [],
      {},
      resumedCtx,
    );
    const b = await publisherFor({ relays: [accepting.url] }).publish(
      { message: 'x' },
      account(),
      [],
      {},
      { ...resumedCtx, idempotencyKey: 'another-process' },
    );
    assert.equal(a.platformPostId, b.platformPostId);
    assert.equal(accepting.events.filter((e) => e.content === 'x').length, 1);
    assert.equal(accepting.events.find((e) => e.content === 'x')?.created_at, Number(handle));
  });

  it('links media by public URL with NIP-92 imeta tags (url, m, x sha256, size, alt)', async () => {
    const bytes = new Uint8Array(samplePng());
    const png = memoryMedia(bytes, { filename: 'dot.png', contentType: 'image/png' });
    const publisher = publisherFor({ relays: [accepting.url] });
    await publisher.publish(
      { message: 'A dot' },
      account(),
      [{ ...png, altText: 'A red\ndot' }],
      {},
      context(),
    );
    const event = accepting.events[0]!;
    assert.equal(event.content, `A dot\n\n${png.url}`);
    assert.deepEqual(event.tags, [
      [
        'imeta',
        `url ${png.url}`,
        'm image/png',
        `x ${createHash('sha256').update(bytes).digest('hex')}`,
        `size ${bytes.length}`,
        'alt A red dot',
      ],
    ]);
  });

  it('publishes thread parts as NIP-10 replies (root and reply markers, relay hints)', async () => {
    const publisher = publisherFor({ relays: [accepting.url] });
    const root = await publisher.publish({ message: '1/3' }, account(), [], {}, context());
    const second = await publisher.publish(
      { message: '2/3' },
      account(),
      [],
      {},
      context({ replyTo: { parent: root, root } }),
    );
    await publisher.publish(
      { message: '3/3' },
      account(),
      [],
      {},
      context({ replyTo: { parent: second, root } }),
    );
    const [, two, three] = accepting.events;
    assert.deepEqual(two!.tags, [
      ['e', root.platformPostId, accepting.url, 'root', pubkey],
      ['p', pubkey],
    ]);
    assert.deepEqual(three!.tags, [
      ['e', root.platformPostId, accepting.url, 'root', pubkey],
      ['e', second.platformPostId, accepting.url, 'reply', pubkey],
      ['p', pubkey],
    ]);
  });

  it('authenticates with NIP-42 when a relay asks for it', async () => {
    const publisher = publisherFor({ relays: [authing.url] });
    const result = await publisher.publish({ message: 'members only' }, account(), [], {}, context());
    assert.equal(result.details?.relays?.[0]?.status, 'accepted');
    assert.equal(authing.events[0]?.content, 'members only');
    assert.equal(authing.connections.at(-1)?.authenticatedAs, pubkey);
  });

  it("an account's relays replace NOSTR_RELAYS and follow the Scheduler's address policy", async () => {
    const publisher = publisherFor({ relays: [refusing.url] });
    const strict = createSafeFetch();
    const refused = await rejection(
      publisher.publish(
        { message: 'p' },
        account(),
        [],
        { relays: [accepting.url] },
        context({ accountHostFetch: strict }),
      ),
    );
    assert.equal(refused.code, 'target_unreachable');
    assert.equal(refused.retryable, false);
    assert.match(refused.message, /ALLOW_PRIVATE_HOSTS/);
    assert.equal(accepting.frames.length, 0, 'nothing reached the private relay');

    const allowed = createSafeFetch({
      allowPrivateHosts: parseAllowedPrivateHosts(new URL(accepting.url).host),
    });
    const ok = await publisher.publish(
      { message: 'p' },
      account(),
      [],
      { relays: [accepting.url] },
      context({ accountHostFetch: allowed }),
    );
    assert.deepEqual(
      ok.details?.relays?.map((r) => r.url),
      [accepting.url],
    );
    // NOSTR_RELAYS are the operator's: trusted even where user hosts are guarded.
    const operator = publisherFor({ relays: [accepting.url] });
    const trusted = await operator.publish(
      { message: 'env' },
      account(),
      [],
      {},
      context({ accountHostFetch: strict }),
    );
    assert.equal(trusted.details?.relays?.[0]?.status, 'accepted');
  });
});

describe('Nostr keys', () => {
  it('accepts nsec or hex, and returns the npub as the account id', async () => {
    const publisher = publisherFor();
    const { secretHex } = await import('./setup.ts');
    for (const secretKey of [account().credentials.secretKey as string, secretHex, secretHex.toUpperCase()]) {
      const profile = await publisher.verifyCredentials(
        account({ credentials: { secretKey }, platformAccountId: '' }),
      );
      assert.equal(profile.platformAccountId, npub);
      assert.equal(profile.username, npub);
    }
  });

  it('refuses a key that does not belong to the named npub, without echoing the key', async () => {
    const publisher = publisherFor();
    const other = 'npub1sg6plzptd64u62a878hep2kev88swjh3tw00gjsfl8f237lmu63q0uf63m';
    const error = await rejection(publisher.verifyCredentials(account({ platformAccountId: other })));
    assert.equal(error.code, 'credentials_invalid');
    assert.ok(!error.message.includes(account().credentials.secretKey as string));
    const malformed = await rejection(
      publisher.verifyCredentials(account({ credentials: { secretKey: 'nsec1abc' } })),
    );
    assert.equal(malformed.code, 'credentials_invalid');
  });
});
