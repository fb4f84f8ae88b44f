import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../../server/db/access.ts';
import { listMedia } from '../../../server/media/list-media.ts';
import { insertMedia } from '../../../server/media/repository.ts';
import { signUp } from '../../../server/users/sign-up.ts';
import { sessionWorkspace } from '../../../server/workspaces/membership.ts';
import { backends } from '../../helpers/databases.ts';
import { videoOf } from '../../helpers/media.ts';
import { type ServiceHarness, startServices } from '../../helpers/service-context.ts';

/*
 * Videos already in the library when posters came (migration 0034): the migration marks them
 * uninspected, and the library's background inspection makes each poster once, the first time a
 * listing shows it, without reading the bytes again for a digest the row already has.
 */
const backfill = readFileSync(
  join(import.meta.dirname, '..', '..', '..', '..', 'drizzle', '0034_video_posters_backfill.sql'),
  'utf8',
);

for (const backend of backends()) {
  describe(`video posters for videos recorded before them (${backend})`, () => {
    let services: ServiceHarness;
    before(async () => {
      services = await startServices(backend, { PATH: process.env.PATH ?? '' });
    });
    after(() => services?.stop());

    test('the migration marks them uninspected; a listing makes their posters once', async () => {
      const { ctx } = services;
      assert.ok(ctx.config.ffmpeg, 'ffmpeg on PATH (docs/testing.md)');
      const user = await signUp(ctx, { email: 'lumiere@example.com', password: 'cinematograph 1895' });
      const { workspace } = await sessionWorkspace(ctx, user.id);
      const bytes = videoOf('mp4', 2);
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const stored = await ctx.storage.put('old-clip.mp4', Readable.from([bytes]), {
        contentType: 'video/mp4',
        maxBytes: bytes.length,
      });
      // As an upload recorded before posters left it: digest known, inspected, no thumbnail.
      const row = await insertMedia(
        ctx,
        workspace.id,
        {
          id: crypto.randomUUID(),
          key: stored.key,
          url: ctx.storage.publicUrl(stored.key),
          filename: 'old-clip.mp4',
          contentType: stored.contentType,
          size: stored.size,
          storage: ctx.storage.kind,
        },
        sha256,
      );
      assert.ok(row?.inspectedAt, 'recorded as inspected');

      await ctx.db.execute(sql.raw(backfill));
      const list = () => listMedia(ctx, workspace.id, { limit: 20 });
      let [entry] = (await list()).media;
      for (let i = 0; i < 100 && !entry?.thumbnailUrl; i++) {
        await new Promise((r) => setTimeout(r, 50));
        [entry] = (await list()).media;
      }
      assert.ok(entry?.thumbnailUrl, 'the poster was made in the background');
      assert.deepEqual([entry.width, entry.height, entry.durationMs, entry.sha256], [320, 180, 2000, sha256]);

      // Once: the row is marked inspected again, and the migration leaves videos with posters alone.
      const inspectedAt = async () =>
        rowsOf<{ inspected_at: unknown }>(
          await ctx.db.execute(sql`SELECT inspected_at FROM media WHERE id = ${row.id}`),
        )[0]?.inspected_at ?? null;
      for (let i = 0; i < 100 && (await inspectedAt()) === null; i++)
        await new Promise((r) => setTimeout(r, 50));
      assert.notEqual(await inspectedAt(), null, 'inspected again');
      await ctx.db.execute(sql.raw(backfill));
      assert.notEqual(await inspectedAt(), null, 'a video with its poster is not marked again');
    });
  });
}
