import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { MediaInfo } from '../../src/media/media-file.ts';
import { validateBlueskyPost } from '../../src/platforms/bluesky/validate.ts';
import { validateDevtoPost } from '../../src/platforms/devto/validate.ts';
import { defaultDiscordApiUrl, defaultDiscordLimits } from '../../src/platforms/discord/config.ts';
import { validateDiscordPost } from '../../src/platforms/discord/validate.ts';
import { validateDribbbleShot } from '../../src/platforms/dribbble/validate.ts';
import { validateFacebookPost } from '../../src/platforms/facebook/validate.ts';
import { validateFarcasterCast } from '../../src/platforms/farcaster/validate.ts';
import { validateGhostPost } from '../../src/platforms/ghost/validate.ts';
import { validateGoogleBusinessPost } from '../../src/platforms/google_business/validate.ts';
import { validateGoogleChatPost } from '../../src/platforms/google_chat/validate.ts';
import { validateHashnodePost } from '../../src/platforms/hashnode/validate.ts';
import { validateInstagramPost } from '../../src/platforms/instagram/validate.ts';
import { validateLemmyPost } from '../../src/platforms/lemmy/validate.ts';
import { validateLinkedInPost } from '../../src/platforms/linkedin/validate.ts';
import { validateListmonkPost } from '../../src/platforms/listmonk/validate.ts';
import type { PlatformManifest } from '../../src/platforms/manifest.ts';
import { manifestFor, platformManifests } from '../../src/platforms/manifests.ts';
import { defaultInstanceLimits } from '../../src/platforms/mastodon/limits.ts';
import { validateMastodonPost } from '../../src/platforms/mastodon/validate.ts';
import { validateMatrixPost } from '../../src/platforms/matrix/validate.ts';
import { validateMediumPost } from '../../src/platforms/medium/validate.ts';
import { validateMisskeyNote } from '../../src/platforms/misskey/validate.ts';
import { validateNostrNote } from '../../src/platforms/nostr/validate.ts';
import { validatePinterestPin } from '../../src/platforms/pinterest/validate.ts';
import { defaultPixelfedLimits } from '../../src/platforms/pixelfed/limits.ts';
import { validatePixelfedPost } from '../../src/platforms/pixelfed/validate.ts';
import { validateRedditPost } from '../../src/platforms/reddit/validate.ts';
import { PublisherRegistry, platformModules } from '../../src/platforms/registry.ts';
import { validateSlackPost } from '../../src/platforms/slack/validate.ts';
import { validateTeamsPost } from '../../src/platforms/teams/validate.ts';
import { defaultTelegramLimits } from '../../src/platforms/telegram/limits.ts';
import { validateTelegramPost } from '../../src/platforms/telegram/validate.ts';
import { validateThreadsPost } from '../../src/platforms/threads/validate.ts';
import { validateTikTokPost } from '../../src/platforms/tiktok/validate.ts';
import { validateTumblrPost } from '../../src/platforms/tumblr/validate.ts';
import { validateTwitchMessage } from '../../src/platforms/twitch/publisher.ts';
import type { ValidationOutcome } from '../../src/platforms/types.ts';
import { validateVkPost } from '../../src/platforms/vk/validate.ts';
import { validateWordPressPost } from '../../src/platforms/wordpress/validate.ts';
import { validateXPost } from '../../src/platforms/x/validate.ts';
import { validateYouTubePost } from '../../src/platforms/youtube/validate.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const platformsDir = resolve(root, 'shared/src/platforms');

describe('platform manifests', () => {
  it('list the registry modules, in the same order, each module carrying its own manifest', () => {
    assert.deepEqual(
      platformManifests.map((m) => m.id),
      platformModules.map((m) => m.id),
    );
    platformModules.forEach((module, index) => {
      assert.equal(module.manifest, platformManifests[index], module.id);
      assert.equal(manifestFor(module.id), module.manifest);
    });
    const publishers = PublisherRegistry.fromEnv({});
    for (const manifest of platformManifests) {
      assert.equal(publishers.get(manifest.id)?.displayName, manifest.name, manifest.id);
    }
  });

  it('give every platform an id of lower-case letters, digits and underscores, unique, naming its folder', () => {
    const ids = platformModules.map((m) => m.id);
    for (const id of ids) assert.match(id, /^[a-z][a-z0-9_]*$/, id);
    assert.equal(new Set(ids).size, ids.length, 'ids are unique');
    // A platform is its folder (shared/src/platforms/<id>/, with its manifest) plus one registry
    // entry: every such folder is registered, and nothing is registered without its folder.
    const folders = readdirSync(platformsDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(resolve(platformsDir, entry.name, 'manifest.ts')))
      .map((entry) => entry.name);
    assert.deepEqual([...ids].sort(), folders.sort());
  });

  it('draw each icon as one inline SVG path on the 24×24 grid, with no external reference', () => {
    for (const { id, icon, color } of platformManifests) {
      assert.match(icon, /^<svg [^>]*viewBox="0 0 24 24"[^>]*><path d="[-0-9.,a-zA-Z ]+"\/><\/svg>$/, id);
      assert.equal(icon.match(/<path /g)?.length, 1, id);
      assert.doesNotMatch(icon, /href|url\(|<script|on[a-z]+=/i, id);
      assert.match(color, /^#[0-9a-f]{6}$/i, id);
    }
  });

  it('describe connect methods and options a form can render, and link to existing docs', () => {
    for (const manifest of platformManifests) {
      assert.ok(existsSync(resolve(root, manifest.docs)), `${manifest.id}: ${manifest.docs}`);
      const { connect } = manifest;
      if (connect.method === 'oauth') {
        assert.match(connect.startPath, /^\/api\/v1\/accounts\/connect\/[a-z_]+$/);
        assert.ok(connect.requiredEnv.length > 0, manifest.id);
      } else {
        assert.ok(connect.fields.length > 0, manifest.id);
        assert.ok(connect.fields.filter((f) => f.target === 'platformAccountId').length <= 1, manifest.id);
      }
      const names = manifest.options.map((o) => o.name);
      assert.equal(new Set(names).size, names.length, `${manifest.id}: option names are unique`);
      for (const option of manifest.options) {
        // A select's choices are in the manifest, unless the platform offers them per account.
        if (option.type === 'select' && !option.choicesFrom)
          assert.ok(option.choices?.length, `${manifest.id}.${option.name}`);
        if (option.type === 'media') assert.ok(option.accept?.length, `${manifest.id}.${option.name}`);
      }
    }
  });

  it('reach only browser-safe modules: zod, the text helpers and counting code, never publisher code', () => {
    // Packages made for the browser too; a new one is added here after checking it needs no Node API.
    const browserPackages = new Set(['zod', 'twitter-text']);
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const source = readFileSync(file, 'utf8');
      for (const [, specifier] of source.matchAll(
        /^(?:import|export)\s(?!type\b)[^'"]*?from\s+'([^']+)'/gm,
      )) {
        if (!specifier!.startsWith('.')) {
          assert.ok(browserPackages.has(specifier!), `${file} imports ${specifier}`);
          continue;
        }
        visit(resolve(dirname(file), specifier!));
      }
    };
    visit(resolve(platformsDir, 'manifests.ts'));
    const forbidden =
      /(publisher|api|bot-api|xrpc|session|upload|oauth|google-fetch|errors|instance|http\/|storage\/|registry)\.ts$/;
    for (const file of seen) assert.doesNotMatch(file, forbidden, `manifests.ts reaches ${file}`);
  });
});

const image: MediaInfo = {
  key: 'k',
  filename: 'a.png',
  contentType: 'image/png',
  size: 10,
  kind: 'image',
  url: 'https://media.example/a.png',
};
const lengthCodes = new Set(['text_too_long', 'caption_too_long', 'description_too_long']);
/** Long-form platforms: the counter counts the title, whose limit is the one that matters. */
const titleCounted = new Set(['wordpress', 'devto', 'ghost', 'medium', 'hashnode', 'listmonk', 'dribbble']);
const account = (platform: string, credentials: Record<string, unknown>) => ({
  id: 'a1',
  platform,
  platformAccountId: 'p1',
  credentials,
});

/** Each platform's own validation, called the way its publisher calls it. */
const validators: Record<
  string,
  (
    message: string,
    hasMedia: boolean,
    options: Record<string, unknown>,
  ) => Promise<ValidationOutcome> | ValidationOutcome
> = {
  telegram: (message, hasMedia, options) =>
    validateTelegramPost({ message }, hasMedia ? [image] : [], options, defaultTelegramLimits),
  bluesky: (message, hasMedia) => validateBlueskyPost({ message }, hasMedia ? [image] : [], {}),
  mastodon: (message, hasMedia, options) =>
    validateMastodonPost({ message }, hasMedia ? [image] : [], options, defaultInstanceLimits),
  discord: (message, hasMedia) =>
    validateDiscordPost(
      { apiUrl: defaultDiscordApiUrl, limits: defaultDiscordLimits },
      { message },
      account('discord', {}),
      hasMedia ? [image] : [],
    ),
  x: (message, hasMedia) => validateXPost({ message }, hasMedia ? [image] : [], {}),
  threads: (message, hasMedia) => validateThreadsPost({ message }, hasMedia ? [image] : [], {}),
  linkedin: (message, hasMedia) =>
    validateLinkedInPost({ message }, account('linkedin', {}), hasMedia ? [image] : [], {}),
  facebook: (message, hasMedia) =>
    validateFacebookPost(
      { message },
      account('facebook', {}),
      hasMedia ? [image] : [],
      {},
      100 * 1024 * 1024,
    ),
  instagram: (message, hasMedia) =>
    validateInstagramPost({ message }, account('instagram', {}), hasMedia ? [image] : [], {}),
  lemmy: (message, hasMedia, options) =>
    validateLemmyPost({ message }, 'lemmy-1', hasMedia ? [image] : [], options),
  misskey: (message, hasMedia) => validateMisskeyNote({ message }, hasMedia ? [image] : [], 3000),
  pixelfed: (message) => validatePixelfedPost({ message }, [image], defaultPixelfedLimits),
  nostr: (message, hasMedia) => validateNostrNote({ message }, hasMedia ? [image] : []),
  youtube: (message, _hasMedia, options) =>
    validateYouTubePost({ message }, account('youtube', {}), [], options),
  slack: (message, hasMedia, options) =>
    validateSlackPost({ message }, account('slack', {}), hasMedia ? [image] : [], options, 1e9),
  matrix: (message, hasMedia, options) =>
    validateMatrixPost({ message }, account('matrix', {}), hasMedia ? [image] : [], options, undefined),
  teams: (message, hasMedia, options) =>
    validateTeamsPost({ message }, account('teams', {}), hasMedia ? [image] : [], options),
  google_chat: (message, hasMedia) =>
    validateGoogleChatPost({ message }, account('google_chat', {}), hasMedia ? [image] : []),
  wordpress: (message, hasMedia, options) =>
    validateWordPressPost({ message }, account('wordpress', {}), hasMedia ? [image] : [], options),
  devto: (message, hasMedia, options) =>
    validateDevtoPost({ message }, account('devto', {}), hasMedia ? [image] : [], options),
  ghost: (message, hasMedia, options) =>
    validateGhostPost({ message }, account('ghost', {}), hasMedia ? [image] : [], options),
  pinterest: (message) => validatePinterestPin({ message }, [image]),
  tiktok: (message, hasMedia) =>
    validateTikTokPost(
      { message },
      hasMedia ? [{ ...image, contentType: 'image/jpeg' }] : [],
      { privacyLevel: 'SELF_ONLY' },
      { audited: true, videoSource: 'FILE_UPLOAD' },
      'a1',
    ),
  medium: (message, hasMedia, options) =>
    validateMediumPost({ message }, account('medium', {}), hasMedia ? [image] : [], options),
  hashnode: (message, hasMedia, options) =>
    validateHashnodePost({ message }, account('hashnode', {}), hasMedia ? [image] : [], options),
  listmonk: (message, hasMedia, options) =>
    validateListmonkPost({ message }, account('listmonk', {}), hasMedia ? [image] : [], options),
  dribbble: (message, hasMedia, options) =>
    validateDribbbleShot({ message }, account('dribbble', {}), hasMedia ? [image] : [], options),
  tumblr: (message, hasMedia) => validateTumblrPost({ message }, hasMedia ? [image] : []),
  farcaster: (message, hasMedia, options) =>
    validateFarcasterCast({ message }, hasMedia ? [image] : [], options),
  vk: (message, hasMedia) => validateVkPost({ message }, hasMedia ? [image] : []),
  twitch: (message) => validateTwitchMessage({ message }, []),
  google_business: (message, hasMedia, options) =>
    validateGoogleBusinessPost(
      { message },
      account('google_business', {}),
      hasMedia ? [image] : [],
      options,
      'UTC',
    ),
  reddit: (message, hasMedia, options) =>
    validateRedditPost({ message }, account('reddit', {}), hasMedia ? [image] : [], {
      title: 'A title',
      ...options,
    }),
};

function samples(limit: number): string[] {
  const units = ['a', 'é', 'e\u0301', '😀', '👨‍👩‍👧', '日', 'https://example.com/path '];
  const out: string[] = [];
  for (const unit of units) {
    const base = Math.floor(limit / Math.max(1, unit.length));
    for (const n of [base - 2, base - 1, base, base + 1, limit - 1, limit, limit + 1]) {
      if (n > 0) out.push(unit.repeat(n));
    }
  }
  return out;
}

describe('manifest counting agrees with validation', () => {
  const cases: Record<string, Record<string, unknown>[]> = {
    telegram: [{}, { parseMode: 'HTML' }, { parseMode: 'MarkdownV2' }],
    mastodon: [{}, { spoilerText: 'cw: spoilers' }],
    lemmy: [{}, { title: 'A title' }],
    youtube: [{}, { description: 'Short description' }],
    slack: [{}, { mrkdwn: true }],
    matrix: [{}, { notice: true }],
    teams: [{}, { title: 'Release notes' }],
    // Long-form platforms count the title: the option's when set, else the message's first line.
    wordpress: [{}, { title: 'A title from the option' }],
    devto: [{}, { title: 'A title from the option' }],
    ghost: [{}, { title: 'A title from the option' }],
    medium: [{}, { title: 'A title from the option' }],
    hashnode: [{}, { title: 'A title from the option' }],
    listmonk: [{}, { subject: 'A subject from the option' }],
    // Dribbble counts the title option (the message is the description).
    dribbble: [{}, { title: 'A shot title' }],
    farcaster: [{}, { longCast: true }],
  };
  for (const manifest of platformManifests) {
    it(`${manifest.id}: the counter is over the limit exactly when validation refuses the length`, async () => {
      const validate = validators[manifest.id];
      assert.ok(validate, `a validator for ${manifest.id} in this test`);
      for (const options of cases[manifest.id] ?? [{}]) {
        for (const hasMedia of [false, true]) {
          const limit = manifest.text.count({ message: '', hasMedia, options }).limit;
          const messages = [
            ...samples(limit),
            '<b>bold</b> '.repeat(Math.ceil(limit / 5)),
            '*x* '.repeat(limit / 2),
          ];
          for (const message of messages) {
            await agree(manifest, validate, message, hasMedia, options);
          }
        }
      }
    });
  }
});

async function agree(
  manifest: PlatformManifest,
  validate: (
    m: string,
    h: boolean,
    o: Record<string, unknown>,
  ) => Promise<ValidationOutcome> | ValidationOutcome,
  message: string,
  hasMedia: boolean,
  options: Record<string, unknown>,
) {
  const count = manifest.text.count({ message, hasMedia, options });
  const outcome = await validate(message, hasMedia, options);
  const refused = outcome.errors.some(
    (e) => lengthCodes.has(e.code) || (titleCounted.has(manifest.id) && e.code === 'title_too_long'),
  );
  assert.equal(
    count.used > count.limit,
    refused,
    `${manifest.id} ${JSON.stringify(options)} media=${hasMedia}: ${count.used}/${count.limit} for ${message.length} UTF-16 units`,
  );
}
