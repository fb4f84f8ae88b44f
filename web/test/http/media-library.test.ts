import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sampleMp4, samplePdf } from '@postwave/shared/testing';
import sharp from 'sharp';
import { userWithToken } from '../helpers/client.ts';
import { backends } from '../helpers/databases.ts';
import { connectTelegram, startTelegramApp, type TelegramApp } from '../helpers/fixtures.ts';
import { pngOf, upload, videoOf } from '../helpers/media.ts';
import { connect } from '../helpers/oauth.ts';
import { assertWrongType } from '../helpers/problems.ts';
import { assertForbidden, buildTeam } from './workspaces/team.ts';

/**
 * The media library (contract section I, docs/media-library.md) over HTTP: uploads deduplicated by
 * SHA-256 per workspace (201 new, 200 known), listing with search, kind, tag and cursor, PATCH
 * validation naming the field, delete refused while a pending post uses the media, the library's
 * alt text as the default at validation, thumbnails (and video posters) made once and served by the media route,
 * roles, and another workspace's media as 404. The S3 variant is in media-library-s3.test.ts.
 */
// biome-ignore lint/suspicious/noExplicitAny: JSON bodies of the API under test, read field by field
type Body = Record<string, any>;

/** The local media directory's entries (made with the first upload). */
const stored = (dataDir: string) =>
  existsSync(join(dataDir, 'media')) ? readdirSync(join(dataDir, 'media')) : [];
const thumbnails = (dataDir: string) => stored(dataDir).filter((name) => name.endsWith('.thumb.webp'));
/** Stored files that are not thumbnails (dot-names are the storage's own temp files and sidecars). */
const originals = (dataDir: string) =>
  stored(dataDir).filter((name) => !name.startsWith('.') && !name.endsWith('.thumb.webp'));

for (const backend of backends()) {
  describe(`media library (${backend})`, () => {
    let env: TelegramApp;
    before(async () => {
      env = await startTelegramApp(backend, { LOG_LEVEL: 'info' });
    });
    after(() => env?.stop());

    test('the same bytes answer the existing media with 200; new bytes 201; other workspaces keep their own', async () => {
      const { api } = await userWithToken(env.app.url, 'dedupe');
      const png = await pngOf(640, 480, 200);
      const files = originals(env.app.dataDir).length;
      const first = await upload(api, png, 'sunset.png', 'image/png');
      assert.equal(first.status, 201, JSON.stringify(first.body));
      const again = await upload(api, png, 'another-name.png', 'image/png');
      assert.equal(again.status, 200, JSON.stringify(again.body));
      assert.deepEqual(again.body.media, first.body.media);
      assert.equal(originals(env.app.dataDir).length, files + 1, 'the duplicate’s copy is removed');
      const other = await upload(api, await pngOf(640, 480, 201), 'sunset.png', 'image/png');
      assert.equal(other.status, 201);
      assert.notEqual(other.body.media.id, first.body.media.id);

      const stranger = await userWithToken(env.app.url, 'stranger');
      const theirs = await upload(stranger.api, png, 'sunset.png', 'image/png');
      assert.equal(theirs.status, 201, 'deduplication is per workspace');
      assert.notEqual(theirs.body.media.id, first.body.media.id);

      const list = await api.json('/api/v1/media');
      assert.equal(list.status, 200);
      assert.deepEqual(
        list.body.media.map((m: Body) => m.id),
        [other.body.media.id, first.body.media.id],
      );
      const entry = list.body.media[1];
      assert.match(entry.sha256, /^[0-9a-f]{64}$/);
      assert.equal(entry.width, 640);
      assert.equal(entry.height, 480);
      assert.deepEqual(entry.tags, []);
      assert.deepEqual(entry.usedBy, []);
      assert.ok(!Number.isNaN(Date.parse(entry.createdAt)));
    });

    test('an image gets one WebP thumbnail, stored beside it and served by the media route', async () => {
      const { api } = await userWithToken(env.app.url, 'thumbs');
      const png = await pngOf(1600, 900, 10);
      const before = thumbnails(env.app.dataDir).length;
      const created = await upload(api, png, 'wide.png', 'image/png');
      assert.equal(created.status, 201);
      const [entry] = (await api.json('/api/v1/media')).body.media;
      assert.ok(entry.thumbnailUrl, 'a thumbnail URL');
      assert.equal(entry.thumbnailUrl, `${env.app.url}/media/${entry.key}.thumb.webp`);
      const served = await fetch(entry.thumbnailUrl);
      assert.equal(served.status, 200);
      assert.equal(served.headers.get('content-type'), 'image/webp');
      const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
      assert.equal(meta.format, 'webp');
      assert.equal(meta.width, 320);
      assert.equal(meta.height, 180);
      const etag = served.headers.get('etag');

      const dupe = await upload(api, png, 'wide-again.png', 'image/png');
      assert.equal(dupe.status, 200);
      assert.equal(thumbnails(env.app.dataDir).length, before + 1, 'made once, not per upload');
      const again = await fetch(entry.thumbnailUrl);
      assert.equal(again.headers.get('etag'), etag);
      await again.arrayBuffer();

      const video = await upload(api, sampleMp4(), 'clip.mp4', 'video/mp4');
      assert.equal(video.status, 201);
      const [videoEntry] = (await api.json('/api/v1/media?kind=video')).body.media;
      assert.equal(
        videoEntry.thumbnailUrl,
        undefined,
        'a file with no frame in it has no poster; it is kept',
      );
    });

    test('a video gets a poster, its size and its duration; served like any thumbnail', async () => {
      const { api } = await userWithToken(env.app.url, 'posters');
      const created = await upload(api, videoOf('mp4', 3), 'clip.mp4', 'video/mp4');
      assert.equal(created.status, 201);
      const [entry] = (await api.json('/api/v1/media?kind=video')).body.media;
      assert.equal(entry.width, 320);
      assert.equal(entry.height, 180);
      assert.equal(entry.durationMs, 3000);
      assert.equal(entry.thumbnailUrl, `${env.app.url}/media/${entry.key}.thumb.webp`);
      const served = await fetch(entry.thumbnailUrl);
      assert.equal(served.status, 200);
      assert.equal(served.headers.get('content-type'), 'image/webp');
      const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
      assert.equal(meta.width, 320);
      assert.equal(meta.height, 180);
    });

    test('listing: search by name, alt text and tag, filter by kind and tag, cursor pages', async () => {
      const { api } = await userWithToken(env.app.url, 'lister');
      const cat = (await upload(api, await pngOf(20, 20, 1), 'Cat on a mat.png', 'image/png')).body.media;
      const dog = (await upload(api, await pngOf(20, 20, 2), 'dog.png', 'image/png')).body.media;
      const clip = (await upload(api, sampleMp4(), 'launch clip.mp4', 'video/mp4')).body.media;
      const doc = (await upload(api, samplePdf(), 'Price list.pdf', 'application/pdf')).body.media;
      const patched = await api.json(`/api/v1/media/${dog.id}`, {
        method: 'PATCH',
        json: { tags: ['Pets', 'summer'], altText: 'A brown dog asleep' },
      });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      assert.deepEqual(patched.body.tags, ['Pets', 'summer']);

      const ids = async (query: string) => {
        const res = await api.json(`/api/v1/media${query}`);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        return res.body.media.map((m: Body) => m.id);
      };
      assert.deepEqual(await ids('?q=CAT'), [cat.id]);
      assert.deepEqual(await ids('?q=asleep'), [dog.id], 'alt text is searched');
      assert.deepEqual(await ids('?q=pet'), [dog.id], 'tags are searched');
      assert.deepEqual(await ids('?tag=pets'), [dog.id], 'a tag in any case');
      assert.deepEqual(await ids('?tag=pet'), [], 'a tag filter is the whole tag');
      assert.deepEqual(await ids('?q=100%25'), [], '% is a literal character');
      assert.deepEqual(await ids('?kind=video'), [clip.id]);
      assert.deepEqual(await ids('?kind=document'), [doc.id]);
      assert.deepEqual(await ids('?kind=image'), [dog.id, cat.id]);
      assert.deepEqual(await ids('?kind=image&tag=summer'), [dog.id]);

      const first = await api.json('/api/v1/media?limit=3');
      assert.equal(first.body.media.length, 3);
      assert.ok(first.body.nextCursor);
      const second = await api.json(`/api/v1/media?limit=3&cursor=${first.body.nextCursor}`);
      assert.equal(second.body.media.length, 1);
      assert.equal(second.body.nextCursor, null);
      assert.deepEqual(
        [...first.body.media, ...second.body.media].map((m: Body) => m.id),
        [doc.id, clip.id, dog.id, cat.id],
      );

      // The paging rule of every list (contract B): limit at most 200.
      assert.equal((await api.json('/api/v1/media?limit=200')).status, 200);
      for (const bad of ['?kind=audio', '?limit=0', '?limit=201', '?cursor=nonsense']) {
        const res = await api.json(`/api/v1/media${bad}`);
        assert.equal(res.status, 400, bad);
        assert.equal(res.body.code, 'invalid_request');
      }
    });

    test('PATCH answers 422 naming the field (400 for a wrong type); empty alt text removes it', async () => {
      const { api } = await userWithToken(env.app.url, 'patcher');
      const media = (await upload(api, await pngOf(8, 8, 3), 'a.png', 'image/png')).body.media;
      // Contract B: a field of the wrong type is 400 invalid_request, naming it.
      for (const [body, path] of [
        [{ altText: 5 }, 'altText'],
        [{ tags: 'summer' }, 'tags'],
      ] as const)
        assertWrongType(await api.json(`/api/v1/media/${media.id}`, { method: 'PATCH', json: body }), path);
      const cases: [unknown, string][] = [
        [{ altText: 'x'.repeat(1501) }, 'altText'],
        [{ tags: ['ok', 'a,b'] }, 'tags.1'],
        [{ tags: ['  '] }, 'tags.0'],
        [{ tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, 'tags'],
        [{ filename: '' }, 'filename'],
        [{ filename: '../etc/passwd' }, 'filename'],
      ];
      for (const [body, path] of cases) {
        const res = await api.json(`/api/v1/media/${media.id}`, { method: 'PATCH', json: body });
        assert.equal(res.status, 422, JSON.stringify(body));
        assert.equal(res.body.code, 'validation_failed');
        assert.ok(
          res.body.errors.some((e: Body) => e.path === path),
          `${JSON.stringify(body)} → ${JSON.stringify(res.body.errors)}`,
        );
      }
      const malformed = await api.fetch(`/api/v1/media/${media.id}`, {
        method: 'PATCH',
        body: '{',
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(malformed.status, 400);

      const set = await api.json(`/api/v1/media/${media.id}`, {
        method: 'PATCH',
        json: { filename: 'Renamed.png', altText: 'Green square', tags: ['a', 'A', 'b'] },
      });
      assert.equal(set.status, 200);
      assert.equal(set.body.filename, 'Renamed.png');
      assert.equal(set.body.altText, 'Green square');
      assert.deepEqual(set.body.tags, ['a', 'b'], 'repeats differing by case are dropped');
      assert.equal(set.body.key, media.key, 'the key and URL never change');
      const cleared = await api.json(`/api/v1/media/${media.id}`, { method: 'PATCH', json: { altText: '' } });
      assert.equal(cleared.status, 200);
      assert.equal(cleared.body.altText, undefined);
      assert.equal(cleared.body.filename, 'Renamed.png', 'fields not sent stay');
    });

    test('delete: 409 media_in_use while a draft uses it, 204 once none does; files and thumbnail go', async () => {
      const { api } = await userWithToken(env.app.url, 'deleter');
      const news = await connectTelegram(api, '@news');
      const media = (await upload(api, await pngOf(50, 50, 4), 'held.png', 'image/png')).body.media;
      const draft = await api.json('/api/v1/posts', {
        json: { message: 'with a picture', accountIds: [news], postingMode: 'draft', media: [media] },
      });
      assert.equal(draft.status, 201, JSON.stringify(draft.body));
      const listed = (await api.json('/api/v1/media')).body.media[0];
      assert.deepEqual(listed.usedBy, [{ postId: draft.body.id, status: 'draft' }]);

      const refused = await api.json(`/api/v1/media/${media.id}`, { method: 'DELETE' });
      assert.equal(refused.status, 409);
      assert.equal(refused.body.code, 'media_in_use');
      assert.match(refused.body.detail, /draft/);

      // Used only through a thread part of a scheduled post: still held.
      const other = (await upload(api, await pngOf(50, 50, 5), 'thread.png', 'image/png')).body.media;
      const scheduled = await api.json('/api/v1/posts', {
        json: {
          message: 'first',
          accountIds: [news],
          postingMode: 'schedule',
          scheduledAt: new Date(Date.now() + 86_400_000).toISOString(),
          thread: [{ message: 'second', media: [other] }],
        },
      });
      assert.equal(scheduled.status, 201, JSON.stringify(scheduled.body));
      const held = await api.json(`/api/v1/media/${other.id}`, { method: 'DELETE' });
      assert.equal(held.status, 409);

      assert.equal((await api.fetch(`/api/v1/posts/${draft.body.id}`, { method: 'DELETE' })).status, 204);
      const deleted = await api.fetch(`/api/v1/media/${media.id}`, { method: 'DELETE' });
      assert.equal(deleted.status, 204);
      assert.equal((await fetch(media.url)).status, 404);
      assert.equal((await fetch(`${media.url}.thumb.webp`)).status, 404);
      assert.equal((await api.fetch(`/api/v1/media/${media.id}`, { method: 'DELETE' })).status, 404);
      const ids = (await api.json('/api/v1/media')).body.media.map((m: Body) => m.id);
      assert.ok(!ids.includes(media.id));
    });

    test('the library’s alt text is the default where a post gives none; the post’s own wins', async () => {
      const { api } = await userWithToken(env.app.url, 'alt');
      const news = await connectTelegram(api, '@news');
      const media = (await upload(api, await pngOf(30, 30, 6), 'alt.png', 'image/png')).body.media;
      // Telegram has no alt text: a reference that carries alt text gets this warning.
      const warnings = async (ref: Body) => {
        const res = await api.json('/api/v1/validation', {
          json: { message: 'hello', accountIds: [news], media: [ref] },
        });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        return res.body.results[0].warnings.map((w: Body) => `${w.code}@${w.path}`);
      };
      assert.deepEqual(await warnings(media), []);
      await api.json(`/api/v1/media/${media.id}`, { method: 'PATCH', json: { altText: 'A small square' } });
      assert.deepEqual(await warnings(media), ['alt_text_unsupported@media[0].altText']);
      assert.deepEqual(await warnings({ key: media.key }), ['alt_text_unsupported@media[0].altText']);
    });

    test('MCP list_media searches and pages the library, and lists only its workspace', async () => {
      const { api, session } = await userWithToken(env.app.url, 'assistant-media');
      const cat = (await upload(api, await pngOf(21, 21, 3), 'Cat.png', 'image/png')).body.media;
      const dog = (await upload(api, await pngOf(21, 21, 4), 'dog.png', 'image/png')).body.media;
      const stranger = await userWithToken(env.app.url, 'assistant-stranger');
      await upload(stranger.api, await pngOf(21, 21, 5), 'Cat too.png', 'image/png');
      const { client: mcp } = await connect(env.app.url, session);
      const call = async (args: Record<string, unknown>) => {
        const answer = await mcp.callTool({ name: 'list_media', arguments: args });
        assert.equal(answer.isError, undefined, JSON.stringify(answer.content));
        return answer.structuredContent as Body;
      };
      assert.deepEqual(
        (await call({})).media.map((m: Body) => m.id),
        [dog.id, cat.id],
      );
      const found = await call({ q: 'cat' });
      assert.deepEqual(
        found.media.map((m: Body) => m.id),
        [cat.id],
      );
      assert.equal(found.media[0].url, cat.url, 'the media object attaches as it is');
      const first = await call({ limit: 1 });
      assert.deepEqual(
        first.media.map((m: Body) => m.id),
        [dog.id],
      );
      const second = await call({ limit: 1, cursor: first.nextCursor });
      assert.deepEqual(
        second.media.map((m: Body) => m.id),
        [cat.id],
      );
      assert.equal(second.nextCursor, null);
      const refused = await mcp.callTool({ name: 'list_media', arguments: { kind: 'audio' } });
      assert.equal(refused.isError, true);
      await mcp.close();
    });

    test('another workspace’s media is 404 and never listed', async () => {
      const owner = await userWithToken(env.app.url, 'owner');
      const media = (await upload(owner.api, await pngOf(9, 9, 7), 'private.png', 'image/png')).body.media;
      const other = await userWithToken(env.app.url, 'other');
      const patch = await other.api.json(`/api/v1/media/${media.id}`, {
        method: 'PATCH',
        json: { altText: 'x' },
      });
      assert.equal(patch.status, 404);
      assert.equal(patch.body.code, 'not_found');
      assert.equal((await other.api.fetch(`/api/v1/media/${media.id}`, { method: 'DELETE' })).status, 404);
      assert.equal((await other.api.fetch('/api/v1/media/not-a-uuid', { method: 'DELETE' })).status, 404);
      assert.deepEqual((await other.api.json('/api/v1/media')).body.media, []);
      assert.equal((await owner.api.json('/api/v1/media')).body.media[0].altText, undefined);
    });

    test('presigned uploads land in the library with their digest once the bytes arrive', async () => {
      const { api } = await userWithToken(env.app.url, 'presigner');
      const png = await pngOf(64, 64, 8);
      const presign = async (name: string) => {
        const res = await api.json('/api/v1/upload/presign', {
          json: { filename: name, contentType: 'image/png', size: png.length },
        });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        const put = await fetch(res.body.uploadUrl, {
          method: 'PUT',
          headers: res.body.headers,
          body: new Uint8Array(png),
        });
        assert.equal(put.status, 201);
        await put.arrayBuffer();
        return res.body.media;
      };
      const first = await presign('direct.png');
      const [entry] = (await api.json('/api/v1/media')).body.media;
      assert.equal(entry.id, first.id);
      assert.match(entry.sha256, /^[0-9a-f]{64}$/);
      assert.equal(entry.width, 64);
      assert.ok(entry.thumbnailUrl);
      // The same bytes by multipart now answer the presigned media.
      const dupe = await upload(api, png, 'again.png', 'image/png');
      assert.equal(dupe.status, 200);
      assert.equal(dupe.body.media.id, first.id);
      // A second presign of the same bytes keeps its own key (it was handed out): no digest.
      const second = await presign('direct-again.png');
      const listed = (await api.json('/api/v1/media')).body.media;
      assert.equal(listed.find((m: Body) => m.id === second.id).sha256, null);
    });

    test('the OpenAPI document describes the library', async () => {
      const { api } = await userWithToken(env.app.url, 'reader');
      const doc = (await api.json('/openapi.json')).body;
      assert.equal(doc.paths['/api/v1/media'].get.operationId, 'listMedia');
      assert.equal(doc.paths['/api/v1/media/{id}'].patch.operationId, 'updateMedia');
      assert.equal(doc.paths['/api/v1/media/{id}'].delete.operationId, 'deleteMedia');
      assert.match(JSON.stringify(doc.paths['/api/v1/media/{id}'].delete), /media_in_use/);
      assert.ok(doc.components.schemas.LibraryMedia.properties.usedBy);
      assert.ok(doc.components.schemas.MediaPatch.properties.altText);
    });

    test('roles: everyone reads the library, contributors upload, editors edit and delete', async () => {
      const team = await buildTeam(env.app, `media-${backend}`);
      const { owner, editor, contributor, viewer } = team.members;
      const media = (await upload(contributor.api, await pngOf(12, 12, 9), 'team.png', 'image/png')).body
        .media;
      assert.ok(media.id);
      assertForbidden(await upload(viewer.api, await pngOf(12, 12, 10), 'v.png', 'image/png'), 'contributor');
      const seen = await viewer.api.json('/api/v1/media');
      assert.equal(seen.status, 200);
      assert.deepEqual(
        seen.body.media.map((m: Body) => m.id),
        [media.id],
      );
      assertForbidden(
        await contributor.api.json(`/api/v1/media/${media.id}`, { method: 'PATCH', json: { altText: 'x' } }),
        'editor',
      );
      assertForbidden(
        await contributor.api.json(`/api/v1/media/${media.id}`, { method: 'DELETE' }),
        'editor',
      );
      const edited = await editor.api.json(`/api/v1/media/${media.id}`, {
        method: 'PATCH',
        json: { altText: 'Team photo' },
      });
      assert.equal(edited.status, 200);
      assert.equal((await owner.api.fetch(`/api/v1/media/${media.id}`, { method: 'DELETE' })).status, 204);
    });
  });
}
