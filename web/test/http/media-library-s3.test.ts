import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type RunningS3, startS3rver } from '@postwave/shared/testing';
import sharp from 'sharp';
import { type RunningApp, startApp } from '../helpers/app.ts';
import { userWithToken } from '../helpers/client.ts';
import { backends } from '../helpers/databases.ts';
import { pngOf, upload, videoOf } from '../helpers/media.ts';
import { tokenIn } from './workspaces/team.ts';

/**
 * The media library on object storage (s3rver checks SigV4): deduplication, a thumbnail stored in
 * the bucket beside its media (the URL is the bucket's, like the media's) and served through the
 * Scheduler's media route too, a video's poster made from the bucket's copy, and deletion (of the
 * media, or of its whole workspace) removing both objects.
 */
for (const backend of backends()) {
  describe(`media library on S3 (${backend})`, () => {
    let s3: RunningS3;
    let app: RunningApp;
    before(async () => {
      s3 = await startS3rver();
      app = await startApp(backend, s3.env());
    });
    after(async () => {
      await app?.stop();
      await s3?.close().catch(() => {});
    });

    test('dedupes, stores one thumbnail in the bucket, serves it, and deletes both objects', async () => {
      const { api } = await userWithToken(app.url, 's3');
      const png = await pngOf(900, 600, 77);
      const first = await upload(api, png, 'bucket.png', 'image/png');
      assert.equal(first.status, 201, JSON.stringify(first.body));
      assert.equal(first.body.media.storage, 's3');
      const again = await upload(api, png, 'bucket-copy.png', 'image/png');
      assert.equal(again.status, 200);
      assert.equal(again.body.media.id, first.body.media.id);

      const [entry] = (await api.json('/api/v1/media')).body.media;
      assert.equal(entry.width, 900);
      assert.equal(entry.height, 600);
      const thumbKey = `${entry.key}.thumb.webp`;
      assert.equal(entry.thumbnailUrl, `${s3.endpoint}/${s3.bucket}/${thumbKey}`);
      const served = await fetch(`${app.url}/media/${thumbKey}`);
      assert.equal(served.status, 200);
      assert.equal(served.headers.get('content-type'), 'image/webp');
      const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
      assert.deepEqual([meta.format, meta.width, meta.height], ['webp', 320, 213]);

      assert.equal((await api.fetch(`/api/v1/media/${entry.id}`, { method: 'DELETE' })).status, 204);
      for (const key of [entry.key, thumbKey]) {
        const gone = await fetch(`${app.url}/media/${key}`);
        assert.equal(gone.status, 404, key);
        await gone.arrayBuffer();
      }
    });

    test('deleting a workspace deletes its objects from the bucket', async () => {
      const { session } = await userWithToken(app.url, 's3-workspace');
      const created = await session.json('/api/v1/workspaces', { json: { name: 'Bucket doomed' } });
      assert.equal(created.status, 201);
      const api = await tokenIn({ session }, created.body.id);
      assert.equal((await upload(api, await pngOf(500, 300, 55), 'doomed.png', 'image/png')).status, 201);
      const [entry] = (await api.json('/api/v1/media')).body.media;
      const keys = [entry.key, `${entry.key}.thumb.webp`];
      const statuses = async () => {
        const answers = [];
        for (const key of keys)
          for (const url of [`${s3.endpoint}/${s3.bucket}/${key}`, `${app.url}/media/${key}`]) {
            const res = await fetch(url);
            await res.arrayBuffer();
            answers.push(res.status);
          }
        return answers;
      };
      assert.deepEqual(await statuses(), [200, 200, 200, 200]);
      const deleted = await session.fetch(`/api/v1/workspaces/${created.body.id}`, { method: 'DELETE' });
      assert.equal(deleted.status, 204);
      assert.deepEqual(await statuses(), [404, 404, 404, 404]);
    });

    test('a video read back from the bucket gets its poster there', async () => {
      const { api } = await userWithToken(app.url, 's3-video');
      const created = await upload(api, videoOf('webm', 2, '480x270'), 'waves.webm', 'video/webm');
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const [entry] = (await api.json('/api/v1/media?kind=video')).body.media;
      assert.deepEqual([entry.width, entry.height, entry.durationMs], [480, 270, 2000]);
      assert.equal(entry.thumbnailUrl, `${s3.endpoint}/${s3.bucket}/${entry.key}.thumb.webp`);
      const served = await fetch(`${app.url}/media/${entry.key}.thumb.webp`);
      assert.equal(served.status, 200);
      const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
      assert.deepEqual([meta.format, meta.width, meta.height], ['webp', 320, 180]);
    });

    test('a presigned PUT straight into the bucket is hashed and thumbnailed once the library is listed', async () => {
      const { api } = await userWithToken(app.url, 's3-presign');
      const png = await pngOf(400, 400, 99);
      const presigned = await api.json('/api/v1/upload/presign', {
        json: { filename: 'direct.png', contentType: 'image/png', size: png.length },
      });
      assert.equal(presigned.status, 201, JSON.stringify(presigned.body));
      assert.ok(presigned.body.uploadUrl.startsWith(s3.endpoint), 'the client talks to the bucket');
      const listedEarly = (await api.json('/api/v1/media')).body.media;
      assert.equal(listedEarly[0].id, presigned.body.media.id, 'reserved keys are listed at once');
      assert.equal(listedEarly[0].sha256, null);
      const put = await fetch(presigned.body.uploadUrl, {
        method: 'PUT',
        headers: presigned.body.headers,
        body: new Uint8Array(png),
      });
      assert.equal(put.status, 200);
      await put.arrayBuffer();

      // Listing starts the background inspection; a later listing shows its result.
      let entry: Record<string, unknown> | undefined;
      for (let i = 0; i < 100 && !entry?.thumbnailUrl; i++) {
        entry = (await api.json('/api/v1/media')).body.media[0];
        if (!entry?.thumbnailUrl) await new Promise((r) => setTimeout(r, 100));
      }
      assert.match(String(entry?.sha256), /^[0-9a-f]{64}$/);
      assert.equal(entry?.width, 400);
      assert.ok(entry?.thumbnailUrl);
      const again = await upload(api, png, 'same.png', 'image/png');
      assert.equal(again.status, 200, 'later uploads of those bytes answer the presigned media');
      assert.equal(again.body.media.id, presigned.body.media.id);
    });

    // Last: it stops the store.
    test('with the store down, an upload answers 503 unavailable (a presign, signed here, is still given); the log has the cause', async () => {
      const { api } = await userWithToken(app.url, 's3-down');
      await s3.close();
      const png = await pngOf(50, 50, 3);
      const refused = await upload(api, png, 'down.png', 'image/png');
      assert.equal(refused.status, 503, JSON.stringify(refused.body));
      assert.equal(refused.headers.get('retry-after'), '30');
      assert.equal(refused.body.code, 'unavailable');
      assert.equal(refused.body.detail, 'Media storage is unavailable; try again later');
      const presign = await api.json('/api/v1/upload/presign', {
        json: { filename: 'down.png', contentType: 'image/png', size: png.length },
      });
      // A presign needs no request to the store (the URL is signed here): it is still given.
      assert.equal(presign.status, 201, JSON.stringify(presign.body));
      assert.match(app.output(), /media storage failed/);
      assert.doesNotMatch(app.output(), /S3RVER/, 'no credential in the log');
    });
  });
}
