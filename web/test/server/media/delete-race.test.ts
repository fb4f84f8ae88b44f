import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ProblemError } from '@postwave/shared';
import { deleteMedia } from '../../../server/media/delete-media.ts';
import { insertMedia, mediaById } from '../../../server/media/repository.ts';
import { createDeferredPost } from '../../../server/posts/create-deferred-post.ts';
import { findPost } from '../../../server/posts/repository.ts';
import { updatePost } from '../../../server/posts/update-post.ts';
import { signUp } from '../../../server/users/sign-up.ts';
import { sessionWorkspace } from '../../../server/workspaces/membership.ts';
import { backends } from '../../helpers/databases.ts';
import { type ServiceHarness, startServices } from '../../helpers/service-context.ts';

/*
 * Deleting library media checks that no unpublished post uses it; a draft written at the same
 * moment must either be seen by that check (409 `media_in_use`) or fail as `media_not_found`,
 * never end up pointing at media that is gone. Both run side by side many times.
 */
const ROUNDS = 40;

const codeOf = (outcome: PromiseSettledResult<unknown>) =>
  outcome.status === 'fulfilled'
    ? 'ok'
    : outcome.reason instanceof ProblemError
      ? (outcome.reason.problem.type.split('/').pop() ?? '').replaceAll('-', '_')
      : (() => {
          throw outcome.reason;
        })();

for (const backend of backends()) {
  describe(`deleting media while a draft takes it (${backend})`, () => {
    let services: ServiceHarness;
    let workspaceId: string;
    before(async () => {
      services = await startServices(backend, {});
      const user = await signUp(services.ctx, { email: 'race@example.com', password: 'media race 2026' });
      workspaceId = (await sessionWorkspace(services.ctx, user.id)).workspace.id;
    });
    after(() => services?.stop());

    const newMedia = async (i: number) => {
      const key = `race-${crypto.randomUUID()}.png`;
      const row = await insertMedia(services.ctx, workspaceId, {
        id: crypto.randomUUID(),
        key,
        url: services.ctx.storage.publicUrl(key),
        filename: `race-${i}.png`,
        contentType: 'image/png',
        size: 10,
        storage: services.ctx.storage.kind,
      });
      return row!;
    };

    /** The post either keeps live media and the delete was refused, or never took it. */
    const settle = async (
      media: { id: string; key: string },
      postId: string | undefined,
      write: PromiseSettledResult<unknown>,
      removal: PromiseSettledResult<unknown>,
    ) => {
      const { ctx } = services;
      const gone = !(await mediaById(ctx, workspaceId, media.id));
      const post = postId ? await findPost(ctx, workspaceId, postId) : undefined;
      const references = JSON.stringify([post?.media, post?.overrides, post?.thread]).includes(media.key);
      assert.ok(!(gone && references), `a post points at deleted media ${media.key}`);
      if (write.status === 'fulfilled') assert.equal(codeOf(removal), 'media_in_use');
      else assert.match(JSON.stringify((write.reason as ProblemError).problem), /media_not_found/);
    };

    test('creating a draft with it', async () => {
      for (let i = 0; i < ROUNDS; i++) {
        const media = await newMedia(i);
        const [write, removal] = await Promise.allSettled([
          createDeferredPost(
            services.ctx,
            workspaceId,
            {
              message: `draft ${i}`,
              accountIds: [],
              media: [],
              accountOptions: {},
              thread: [{ message: 'part', media: [{ key: media.key }] }],
            },
            'draft',
            async () => {},
          ),
          deleteMedia(services.ctx, workspaceId, media.id),
        ]);
        codeOf(removal);
        const postId = write.status === 'fulfilled' ? write.value.id : undefined;
        await settle(media, postId, write, removal);
      }
    });

    test('adding it to a draft', async () => {
      for (let i = 0; i < ROUNDS; i++) {
        const media = await newMedia(i);
        const draft = await createDeferredPost(
          services.ctx,
          workspaceId,
          { message: `draft ${i}`, accountIds: [], media: [], accountOptions: {} },
          'draft',
          async () => {},
        );
        const [write, removal] = await Promise.allSettled([
          updatePost(services.ctx, workspaceId, draft.id, { media: [{ key: media.key }] }),
          deleteMedia(services.ctx, workspaceId, media.id),
        ]);
        codeOf(removal);
        await settle(media, draft.id, write, removal);
      }
    });
  });
}
