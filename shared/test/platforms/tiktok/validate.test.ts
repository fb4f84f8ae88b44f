import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MediaInfo } from '../../../src/media/media-file.ts';
import { quotePostIds } from '../../../src/platforms/tiktok/api.ts';
import { tiktokConfigFromEnv } from '../../../src/platforms/tiktok/config.ts';
import { chunkPlan } from '../../../src/platforms/tiktok/index.ts';
import { tiktokManifest } from '../../../src/platforms/tiktok/manifest.ts';
import { tiktokOptionsSchema } from '../../../src/platforms/tiktok/options.ts';
import { type TikTokRules, validateTikTokPost } from '../../../src/platforms/tiktok/validate.ts';

const info = (
  kind: MediaInfo['kind'],
  contentType: string,
  size = 1000,
  url = 'https://cdn.example.com/m',
): MediaInfo => ({
  key: 'k',
  filename: 'f',
  contentType,
  size,
  kind,
  url,
});
const jpeg = info('image', 'image/jpeg');
const mp4 = info('video', 'video/mp4');
const audited: TikTokRules = { audited: true, videoSource: 'FILE_UPLOAD' };
const check = (message: string, media: MediaInfo[], options = {}, rules = audited) =>
  validateTikTokPost({ message }, media, { privacyLevel: 'SELF_ONLY', ...options }, rules, 'tt1');
const codes = (message: string, media: MediaInfo[], options = {}, rules = audited) =>
  check(message, media, options, rules).errors.map((e) => e.code);
const MB = 1024 * 1024;

describe('TikTok validation', () => {
  it('counts the caption in UTF-16 code units, as TikTok does, up to 2200', () => {
    assert.deepEqual(codes('a'.repeat(2200), [mp4]), []);
    assert.deepEqual(codes('a'.repeat(2201), [mp4]), ['caption_too_long']);
    // An emoji outside the BMP is two UTF-16 units.
    assert.deepEqual(codes('😀'.repeat(1100), [mp4]), []);
    assert.deepEqual(codes(`${'😀'.repeat(1100)}a`, [mp4]), ['caption_too_long']);
    const count = tiktokManifest.text.count({ message: '😀ab', hasMedia: true, options: {} });
    assert.deepEqual([count.used, count.limit], [4, 2200]);
  });

  it('needs one video or 1 to 35 photos, never both', () => {
    assert.deepEqual(codes('x', []), ['media_required']);
    assert.deepEqual(codes('x', [mp4, jpeg]), ['media_mix_unsupported']);
    assert.deepEqual(codes('x', [mp4, mp4]), ['media_mix_unsupported']);
    assert.deepEqual(codes('x', Array(35).fill(jpeg)), []);
    assert.deepEqual(codes('x', Array(36).fill(jpeg)), ['too_many_media']);
  });

  it('takes JPEG or WebP photos (no PNG) up to 20 MB, and MP4, MOV or WebM videos up to 4 GB', () => {
    assert.deepEqual(codes('x', [info('image', 'image/png')]), ['media_type_unsupported']);
    assert.deepEqual(codes('x', [info('image', 'image/webp')]), []);
    assert.deepEqual(codes('x', [info('image', 'image/jpeg', 21 * MB)]), ['media_too_large']);
    assert.deepEqual(codes('x', [info('video', 'video/quicktime')]), []);
    assert.deepEqual(codes('x', [info('video', 'video/x-msvideo')]), ['media_type_unsupported']);
    assert.deepEqual(codes('x', [info('video', 'video/mp4', 4 * 1024 * MB + 1)]), ['media_too_large']);
  });

  it('says an unaudited app may only post SELF_ONLY', () => {
    const unaudited: TikTokRules = { audited: false, videoSource: 'FILE_UPLOAD' };
    const outcome = check('x', [mp4], { privacyLevel: 'PUBLIC_TO_EVERYONE' }, unaudited);
    assert.deepEqual(outcome.errors, []);
    assert.deepEqual(
      outcome.warnings.map((w) => [w.code, w.path]),
      [['unaudited_app_self_only', 'accountOptions.tt1.privacyLevel']],
    );
    assert.match(outcome.warnings[0]!.message, /SELF_ONLY/);
    assert.deepEqual(check('x', [mp4], { privacyLevel: 'SELF_ONLY' }, unaudited).warnings, []);
    assert.deepEqual(check('x', [mp4], { privacyLevel: 'PUBLIC_TO_EVERYONE' }).warnings, []);
    assert.equal(tiktokConfigFromEnv({}).audited, false, 'a new app is unaudited');
    assert.equal(tiktokConfigFromEnv({ TIKTOK_APP_AUDITED: 'true' }).audited, true);
  });

  it('warns about options the kind of post ignores', () => {
    assert.deepEqual(
      check('x', [mp4], { title: 'A title' }).warnings.map((w) => w.path),
      ['accountOptions.tt1.title'],
    );
    assert.deepEqual(
      check('x', [jpeg], { disableDuet: true }).warnings.map((w) => w.path),
      ['accountOptions.tt1.disableDuet'],
    );
  });

  it('warns when TikTok must pull media from a URL that is not public', () => {
    const local = (m: MediaInfo) => ({ ...m, url: 'http://127.0.0.1:3000/media/a' });
    assert.deepEqual(
      check('x', [local(jpeg)]).warnings.map((w) => w.code),
      ['media_url_not_public'],
    );
    assert.deepEqual(check('x', [local(mp4)]).warnings, [], 'FILE_UPLOAD sends the bytes');
    assert.deepEqual(
      check('x', [local(mp4)], {}, { audited: true, videoSource: 'PULL_FROM_URL' }).warnings.map(
        (w) => w.code,
      ),
      ['media_url_not_public'],
    );
  });

  it('has strict options: a photo title up to 90 characters, booleans, a privacy level', () => {
    assert.equal(tiktokOptionsSchema.safeParse({ title: 'a'.repeat(90) }).success, true);
    assert.equal(tiktokOptionsSchema.safeParse({ title: 'a'.repeat(91) }).success, false);
    assert.equal(tiktokOptionsSchema.safeParse({ privacy: 'SELF_ONLY' }).success, false);
    assert.equal(tiktokOptionsSchema.safeParse({ disableComment: 'yes' }).success, false);
    const field = tiktokManifest.options.find((o) => o.name === 'privacyLevel');
    assert.equal(field?.required, true, 'never defaulted');
    assert.deepEqual(field?.choicesFrom, {});
  });
});

describe('TikTok FILE_UPLOAD chunks', () => {
  it('sends a video under 5 MB, or one that fits a chunk, whole', () => {
    assert.deepEqual(chunkPlan(3 * MB, 10 * MB), { chunkSize: 3 * MB, totalChunkCount: 1 });
    assert.deepEqual(chunkPlan(8 * MB, 10 * MB), { chunkSize: 8 * MB, totalChunkCount: 1 });
  });

  it('cuts floor(size / chunk) chunks, the last one taking the remainder (up to 128 MB)', () => {
    assert.deepEqual(chunkPlan(25 * MB, 10 * MB), { chunkSize: 10 * MB, totalChunkCount: 2 });
    assert.deepEqual(chunkPlan(11 * MB, 5 * MB), { chunkSize: 5 * MB, totalChunkCount: 2 });
    const plan = chunkPlan(127 * MB, 64_000_000);
    assert.equal(plan.totalChunkCount, 2);
    assert.ok(127 * MB - plan.chunkSize <= 128_000_000);
  });

  it('keeps to 1000 chunks, growing them for a big video', () => {
    const plan = chunkPlan(4 * 1024 * MB, 5 * MB);
    assert.ok(plan.totalChunkCount <= 1000);
    assert.ok(plan.chunkSize <= 64_000_000);
  });

  it('refuses a configured chunk size outside 5 MB to 64 MB at start', () => {
    assert.throws(() => tiktokConfigFromEnv({ TIKTOK_CHUNK_BYTES: String(4 * MB) }), /TIKTOK_CHUNK_BYTES/);
    assert.throws(() => tiktokConfigFromEnv({ TIKTOK_CHUNK_BYTES: String(65 * MB) }), /TIKTOK_CHUNK_BYTES/);
    assert.throws(() => tiktokConfigFromEnv({ TIKTOK_VIDEO_SOURCE: 'SOMETHING' }), /TIKTOK_VIDEO_SOURCE/);
    assert.equal(tiktokConfigFromEnv({}).authorizeUrl, 'https://www.tiktok.com/v2/auth/authorize/');
  });
});

describe('TikTok answers', () => {
  it('keeps 19-digit post ids exact (TikTok writes them as JSON numbers)', () => {
    const text =
      '{"data":{"status":"PUBLISH_COMPLETE","publicaly_available_post_id":[7300000000000000123, 7300000000000000999]},"error":{"code":"ok"}}';
    const parsed = JSON.parse(quotePostIds(text));
    assert.deepEqual(parsed.data.publicaly_available_post_id, ['7300000000000000123', '7300000000000000999']);
    assert.equal(quotePostIds('{"publicaly_available_post_id":[]}'), '{"publicaly_available_post_id":[]}');
    assert.equal(
      quotePostIds('{"publicaly_available_post_id":["1"]}'),
      '{"publicaly_available_post_id":["1"]}',
    );
  });
});
