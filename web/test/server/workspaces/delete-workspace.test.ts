import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { type Storage, storeUpload } from '@postwave/shared';
import type { Caller } from '#server/auth/caller.ts';
import type { AppContext } from '#server/context.ts';
import type { AppLogger } from '#server/logger.ts';
import { recordUpload } from '#server/media/record.ts';
import { mediaByKey } from '#server/media/repository.ts';
import { createWorkspace } from '#server/workspaces/create-workspace.ts';
import { deleteWorkspace } from '#server/workspaces/delete-workspace.ts';
import { findWorkspace } from '#server/workspaces/repository.ts';
import { signUpWithWorkspace } from '#test/helpers/workspaces.ts';
import { backends } from '../../helpers/databases.ts';
import { pngOf } from '../../helpers/media.ts';
import { type ServiceHarness, startServices } from '../../helpers/service-context.ts';

/**
 * Contract G: a deleted workspace's data goes with it, its stored media files too (they are served
 * straight from storage by key), after the delete commits; a file storage refuses to remove never
 * fails the delete, and is logged with its key.
 */
for (const backend of backends()) {
  describe(`deleting a workspace removes its stored media (${backend})`, () => {
    let harness: ServiceHarness;
    let ctx: AppContext;
    before(async () => {
      harness = await startServices(backend, {});
      ctx = harness.ctx;
    });
    after(() => harness?.stop());

    let people = 0;
    /** An owner with a second, new workspace (the one deleted) beside their personal one. */
    async function ownerOfTwo() {
      const user = await signUpWithWorkspace(ctx, {
        email: `ws-delete-${backend}-${people++}@example.com`,
        password: 'a long password 1',
      });
      const caller = (workspaceId: string): Caller => ({
        userId: user.userId,
        workspaceId,
        role: 'owner',
        actor: { type: 'member', userId: user.userId, name: user.email },
        via: 'session',
      });
      const doomed = await createWorkspace(ctx, caller(user.workspaceId), 'Doomed');
      return { personal: user.workspaceId, doomed: caller(doomed.id) };
    }

    /** An image uploaded to the workspace: its file and its thumbnail, as the upload route stores them. */
    async function uploadPng(workspaceId: string, red: number): Promise<string[]> {
      const bytes = await pngOf(600, 400, red);
      const stored = await storeUpload({
        storage: ctx.storage,
        body: Readable.from([bytes]),
        filename: 'photo.png',
        maxBytes: bytes.length,
      });
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const { media } = await recordUpload(ctx, workspaceId, stored, sha256);
      const thumbnail = (await mediaByKey(ctx, media.key))?.thumbnailKey;
      assert.ok(thumbnail, 'the image got a thumbnail');
      return [media.key, thumbnail];
    }
    const present = async (keys: string[]) =>
      Promise.all(keys.map(async (key) => (await ctx.storage.head(key)) !== null));

    test('its files and thumbnails leave storage; another workspace keeps its own', async () => {
      const { personal, doomed } = await ownerOfTwo();
      const gone = [
        ...(await uploadPng(doomed.workspaceId, 10)),
        ...(await uploadPng(doomed.workspaceId, 11)),
      ];
      // The same bytes in another workspace are a copy of its own, under another key.
      const kept = await uploadPng(personal, 10);
      assert.deepEqual(await present([...gone, ...kept]), [true, true, true, true, true, true]);

      await deleteWorkspace(ctx, doomed);
      assert.equal(await findWorkspace(ctx, doomed.workspaceId), undefined);
      assert.deepEqual(await present(gone), [false, false, false, false]);
      assert.deepEqual(await present(kept), [true, true]);
      await assert.rejects(deleteWorkspace(ctx, doomed), { status: 404 });
    });

    test('a file storage will not remove is logged with its key; the delete still succeeds', async () => {
      const { doomed } = await ownerOfTwo();
      const [refused, ...others] = await uploadPng(doomed.workspaceId, 20);
      const logged: { fields: Record<string, unknown>; message: string }[] = [];
      const storage = {
        delete: (key: string) =>
          key === refused ? Promise.reject(new Error('bucket says no')) : ctx.storage.delete(key),
      } as Storage;
      const logger = {
        error: (fields: Record<string, unknown>, message: string) => logged.push({ fields, message }),
      } as unknown as AppLogger;

      await deleteWorkspace({ ...ctx, storage, logger }, doomed);
      assert.equal(await findWorkspace(ctx, doomed.workspaceId), undefined);
      assert.deepEqual(await present([refused!, ...others]), [true, false]);
      assert.equal(logged.length, 1);
      assert.equal(logged[0]!.fields.key, refused);
      assert.equal(logged[0]!.fields.workspaceId, doomed.workspaceId);
      await ctx.storage.delete(refused!);
    });
  });
}
