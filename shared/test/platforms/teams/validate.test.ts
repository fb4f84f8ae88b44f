import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MediaInfo } from '../../../src/media/media-file.ts';
import { maxCardBytes, messageBytes, teamsMessage } from '../../../src/platforms/teams/card.ts';
import { teamsManifest } from '../../../src/platforms/teams/manifest.ts';
import { validateTeamsPost } from '../../../src/platforms/teams/validate.ts';
import { parseTeamsWebhookUrl } from '../../../src/platforms/teams/webhook-url.ts';

const workflowUrl =
  'https://prod-12.westeurope.logic.azure.com:443/workflows/0123456789abcdef0123456789abcdef/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=AbC-dEf_123';
const account = {
  id: 't1',
  platform: 'teams',
  platformAccountId: 'General',
  credentials: { webhookUrl: workflowUrl },
};
const image = (
  index: number,
  contentType = 'image/png',
  url = `https://media.example/${index}.png`,
): MediaInfo => ({
  key: `k${index}`,
  filename: `${index}.png`,
  contentType,
  size: 10,
  kind: contentType === 'image/gif' ? 'gif' : 'image',
  url,
});
const codes = (o: { errors: { code: string }[] }) => o.errors.map((e) => e.code);

describe('Teams webhook URLs', () => {
  it('accepts Workflows, Power Automate and incoming-webhook URLs as Microsoft hands them out', () => {
    for (const url of [
      workflowUrl,
      'https://default0123abcd.ab.environment.api.powerplatform.com:443/powerautomate/automations/direct/workflows/0123456789abcdef0123456789abcdef/triggers/manual/paths/invoke?api-version=1&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=xyz',
      'https://contoso.webhook.office.com/webhookb2/9a2f3e1c-1111-2222-3333-444455556666@72f988bf-86f1-41af-91ab-2d7cd011db47/IncomingWebhook/0123456789abcdef0123456789abcdef/5e6f7a8b-1111-2222-3333-444455556666',
      'http://127.0.0.1:8080/workflows/abc/triggers/manual/paths/invoke?sig=s',
    ]) {
      assert.ok(parseTeamsWebhookUrl(url), url);
    }
  });

  it('refuses other shapes: no signature, plain http to a public host, another path, user info', () => {
    for (const url of [
      workflowUrl.replace(/&sig=[^&]+/, ''),
      workflowUrl.replace('https:', 'http:'),
      'https://example.com/webhook',
      'https://user:pw@prod-1.logic.azure.com/workflows/a/triggers/manual/paths/invoke?sig=s',
      `${workflowUrl}#x`,
      'not a url',
      42,
    ]) {
      assert.equal(parseTeamsWebhookUrl(url), undefined, String(url));
    }
  });
});

describe('Teams cards', () => {
  it('builds an Adaptive Card 1.4 message: a title, a TextBlock per line, images by URL', () => {
    const card = teamsMessage(
      'First line\nsecond line\n\nNew paragraph',
      [{ url: 'https://m/1.png', altText: 'One' }],
      {
        title: 'Release',
        fullWidth: true,
      },
    );
    assert.deepEqual(card, {
      type: 'message',
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.adaptive',
          contentUrl: null,
          content: {
            $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
            type: 'AdaptiveCard',
            version: '1.4',
            body: [
              { type: 'TextBlock', text: 'Release', size: 'Medium', weight: 'Bolder', wrap: true },
              { type: 'TextBlock', text: 'First line', wrap: true },
              { type: 'TextBlock', text: 'second line', wrap: true, spacing: 'None' },
              { type: 'TextBlock', text: 'New paragraph', wrap: true },
              { type: 'Image', url: 'https://m/1.png', altText: 'One', size: 'Stretch' },
            ],
            msteams: { width: 'Full' },
          },
        },
      ],
    });
  });

  it('refuses a card over 28 KB before sending, counting as the composer does', () => {
    const fits = 'a'.repeat(maxCardBytes - 400);
    assert.ok(messageBytes(teamsMessage(fits, [], {})) <= maxCardBytes);
    assert.deepEqual(codes(validateTeamsPost({ message: fits }, account, [], {})), []);
    assert.deepEqual(codes(validateTeamsPost({ message: 'a'.repeat(maxCardBytes) }, account, [], {})), [
      'text_too_long',
    ]);
    const count = teamsManifest.text.count({ message: fits, hasMedia: false, options: {} });
    assert.equal(count.used, messageBytes(teamsMessage(fits, [], {})));
    // Images that push the card over the limit are refused as such.
    const near = 'a'.repeat(maxCardBytes - 450);
    assert.deepEqual(
      codes(
        validateTeamsPost(
          { message: near },
          account,
          [0, 1, 2, 3, 4].map((i) => image(i)),
          {},
        ),
      ),
      ['card_too_large'],
    );
    // Quotes and non-ASCII grow the JSON: it is the bytes sent that count.
    assert.ok(messageBytes(teamsMessage('"é"', [], {})) > messageBytes(teamsMessage('abc', [], {})));
  });

  it('takes PNG, JPEG and GIF images, at most 10, and warns when their URL is not public', () => {
    assert.deepEqual(codes(validateTeamsPost({ message: '' }, account, [image(0, 'image/gif')], {})), []);
    assert.deepEqual(codes(validateTeamsPost({ message: 'x' }, account, [image(0, 'image/webp')], {})), [
      'media_type_unsupported',
    ]);
    assert.deepEqual(
      codes(
        validateTeamsPost(
          { message: 'x' },
          account,
          Array.from({ length: 11 }, (_, i) => image(i)),
          {},
        ),
      ),
      ['too_many_media'],
    );
    const local = validateTeamsPost(
      { message: 'x' },
      account,
      [image(0, 'image/png', 'http://127.0.0.1:3000/media/a.png')],
      {},
    );
    assert.deepEqual(
      local.warnings.map((w) => w.code),
      ['media_url_not_public'],
    );
    assert.deepEqual(codes(validateTeamsPost({ message: ' ' }, account, [], {})), ['text_required']);
    assert.deepEqual(codes(validateTeamsPost({ message: ' ' }, account, [], { title: 'Only a title' })), []);
    assert.deepEqual(
      codes(
        validateTeamsPost(
          { message: 'x' },
          { ...account, credentials: { webhookUrl: 'https://example.com/x' } },
          [],
          {},
        ),
      ),
      ['credentials_invalid'],
    );
  });
});
