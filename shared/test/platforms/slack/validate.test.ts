import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MediaInfo } from '../../../src/media/media-file.ts';
import { slackManifest } from '../../../src/platforms/slack/manifest.ts';
import { slackText } from '../../../src/platforms/slack/text.ts';
import { validateSlackPost } from '../../../src/platforms/slack/validate.ts';

const account = {
  id: 's1',
  platform: 'slack',
  platformAccountId: 'C0GENERAL1',
  credentials: { botToken: 'xoxb-1-abc' },
};
const file = (size: number, index = 0): MediaInfo => ({
  key: `k${index}`,
  filename: `f${index}.png`,
  contentType: 'image/png',
  size,
  kind: 'image',
  url: `https://media.example/f${index}.png`,
});
const codes = (outcome: { errors: { code: string }[] }) => outcome.errors.map((e) => e.code);

describe('Slack validation', () => {
  it('escapes &, < and > in plain text, and sends mrkdwn as written', () => {
    assert.equal(slackText('a < b && c > d <@U1>', undefined), 'a &lt; b &amp;&amp; c &gt; d &lt;@U1&gt;');
    assert.equal(slackText('*bold* <https://x.test|x>', true), '*bold* <https://x.test|x>');
  });

  it('counts 40,000 characters of the text as sent', () => {
    assert.deepEqual(codes(validateSlackPost({ message: 'a'.repeat(40_000) }, account, [], {}, 1e9)), []);
    assert.deepEqual(codes(validateSlackPost({ message: 'a'.repeat(40_001) }, account, [], {}, 1e9)), [
      'text_too_long',
    ]);
    // 10,000 ampersands are 50,000 characters escaped, but 10,000 as mrkdwn.
    const amps = '&'.repeat(10_000);
    assert.deepEqual(codes(validateSlackPost({ message: amps }, account, [], {}, 1e9)), ['text_too_long']);
    assert.deepEqual(codes(validateSlackPost({ message: amps }, account, [], { mrkdwn: true }, 1e9)), []);
    assert.deepEqual(slackManifest.text.count({ message: amps, hasMedia: false, options: {} }), {
      used: 50_000,
      limit: 40_000,
      unit: 'characters',
    });
    // Code points: an emoji is one character.
    assert.deepEqual(codes(validateSlackPost({ message: '😀'.repeat(40_000) }, account, [], {}, 1e9)), []);
  });

  it('needs text or a file, at most 10 files, each within the size limit', () => {
    assert.deepEqual(codes(validateSlackPost({ message: '  ' }, account, [], {}, 1e9)), ['text_required']);
    assert.deepEqual(codes(validateSlackPost({ message: '' }, account, [file(10)], {}, 1e9)), []);
    const eleven = Array.from({ length: 11 }, (_, i) => file(10, i));
    assert.deepEqual(codes(validateSlackPost({ message: 'x' }, account, eleven, {}, 1e9)), [
      'too_many_media',
    ]);
    assert.deepEqual(codes(validateSlackPost({ message: 'x' }, account, [file(101)], {}, 100)), [
      'media_too_large',
    ]);
  });

  it('needs a channel id and a bot token', () => {
    assert.deepEqual(
      codes(validateSlackPost({ message: 'x' }, { ...account, platformAccountId: '#general' }, [], {}, 1e9)),
      ['account_invalid'],
    );
    assert.deepEqual(
      codes(validateSlackPost({ message: 'x' }, { ...account, credentials: {} }, [], {}, 1e9)),
      ['credentials_invalid'],
    );
  });
});
