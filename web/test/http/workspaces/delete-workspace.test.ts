import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type RunningApp, startApp } from '../../helpers/app.ts';
import { userWithToken } from '../../helpers/client.ts';
import { backends } from '../../helpers/databases.ts';
import { pngOf, upload, videoOf } from '../../helpers/media.ts';
import { tokenIn } from './team.ts';

/**
 * Contract G: `DELETE /api/v1/workspaces/{id}` takes its data with it. `GET /media/{key}` serves
 * straight from storage, so its files, thumbnails and video posters must leave storage too, while
 * another workspace's copy of the same bytes stays served.
 */
for (const backend of backends()) {
  describe(`deleting a workspace stops serving its media (${backend})`, () => {
    let app: RunningApp;
    before(async () => {
      app = await startApp(backend);
    });
    after(() => app?.stop());

    const status = async (url: string) => {
      const res = await fetch(url);
      await res.arrayBuffer();
      return res.status;
    };

    test('its media, thumbnail and poster URLs answer 404 after the delete', async () => {
      const { session, api: personal } = await userWithToken(app.url, `ws-media-${backend}`);
      const created = await session.json('/api/v1/workspaces', { json: { name: 'Doomed' } });
      assert.equal(created.status, 201);
      const doomed = await tokenIn({ session }, created.body.id);
      const png = await pngOf(600, 400, 31);
      for (const [bytes, name, type] of [
        [png, 'doomed.png', 'image/png'],
        [videoOf('webm', 1), 'doomed.webm', 'video/webm'],
      ] as const)
        assert.equal((await upload(doomed, bytes, name, type)).status, 201, name);
      const kept = await upload(personal, png, 'kept.png', 'image/png');
      assert.equal(kept.status, 201, 'the same bytes in another workspace are its own copy');

      const urlsOf = async (api: typeof personal) =>
        ((await api.json('/api/v1/media')).body.media as { url: string; thumbnailUrl?: string }[]).flatMap(
          (m) => [m.url, m.thumbnailUrl ?? assert.fail(`no thumbnail or poster for ${m.url}`)],
        );
      const doomedUrls = await urlsOf(doomed);
      const keptUrls = await urlsOf(personal);
      assert.equal(doomedUrls.length, 4);
      for (const url of [...doomedUrls, ...keptUrls]) assert.equal(await status(url), 200, url);

      const deleted = await session.fetch(`/api/v1/workspaces/${created.body.id}`, { method: 'DELETE' });
      assert.equal(deleted.status, 204);
      for (const url of doomedUrls) assert.equal(await status(url), 404, url);
      for (const url of keptUrls) assert.equal(await status(url), 200, url);
    });
  });
}
