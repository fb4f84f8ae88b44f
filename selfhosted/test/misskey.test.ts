import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FakeMisskey, samplePng, startFakeMisskey } from '@postwave/shared/testing';
import { startTestServer, type TestServer } from './helpers.ts';

describe('self-hosted: Misskey', () => {
  let misskey: FakeMisskey;
  let server: TestServer;
  before(async () => {
    misskey = await startFakeMisskey({
      tokens: { 'mk-token': { id: '9mk', username: 'mika' } },
      maxNoteTextLength: 100,
    });
    server = await startTestServer({
      accounts: [
        {
          id: 'mk',
          platform: 'misskey',
          platformAccountId: '9mk',
          credentials: misskey.credentials('mk-token'),
        },
      ],
    });
  });
  after(async () => {
    await server.close();
    await misskey.close();
  });

  it("validates against the instance's maxNoteTextLength, then publishes a note with a file", async () => {
    const tooLong = await server.api('/api/v1/validation', {
      json: { message: 'a'.repeat(101), accountIds: ['mk'] },
    });
    const refused = (await tooLong.json()) as { valid: boolean; results: { errors: { code: string }[] }[] };
    assert.equal(refused.valid, false);
    assert.deepEqual(
      refused.results[0]!.errors.map((e) => e.code),
      ['text_too_long'],
    );

    const body = new FormData();
    body.append('file', new Blob([new Uint8Array(samplePng())], { type: 'image/png' }), 'dot.png');
    const { media } = (await (await server.api('/api/v1/upload', { method: 'POST', body })).json()) as {
      media: object;
    };
    const response = await server.api('/api/v1/posts', {
      json: {
        message: 'From the self-hosted server',
        accountIds: ['mk'],
        postingMode: 'now',
        media: [{ ...media, altText: 'A dot' }],
        accountOptions: { mk: { visibility: 'home', contentWarning: 'tiny' } },
      },
    });
    const result = (await response.json()) as { results: { platformPostId: string; url: string }[] };
    assert.equal(response.status, 200, JSON.stringify(result));
    const note = misskey.notes.at(-1)!;
    assert.deepEqual([note.text, note.visibility, note.cw], ['From the self-hosted server', 'home', 'tiny']);
    assert.equal(misskey.files.get(note.fileIds[0]!)!.comment, 'A dot');
    assert.equal(result.results[0]!.url, `${misskey.url}/notes/${note.id}`);
  });
});
