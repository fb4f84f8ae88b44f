import { after, before, describe } from 'node:test';
import { DatabaseIdempotencyStore, idempotencyScope } from '#server/idempotency/repository.ts';
import { insertUser } from '#server/users/repository.ts';
import {
  type IdempotencyTarget,
  idempotencyConformance,
} from '../../../shared/test/idempotency/conformance.ts';
import { storeConformance } from '../../../shared/test/idempotency/store-conformance.ts';
import { telegramHooks } from '../../../shared/test/idempotency/telegram-target.ts';
import { userWithToken } from '../helpers/client.ts';
import { backends } from '../helpers/databases.ts';
import { connectTelegram, startTelegramApp, type TelegramApp } from '../helpers/fixtures.ts';
import { type ServiceHarness, startServices } from '../helpers/service-context.ts';
import { bots } from '../helpers/telegram-bots.ts';

for (const backend of backends()) {
  describe(`Idempotency-Key conformance (Scheduler, ${backend})`, () => {
    let env: TelegramApp;
    let target: IdempotencyTarget;
    before(async () => {
      env = await startTelegramApp(backend);
      const me = await userWithToken(env.app.url, 'idem');
      const news = await connectTelegram(me.api, '@news', bots.main);
      const other = await userWithToken(env.app.url, 'idem-other');
      const theirNews = await connectTelegram(other.api, '@updates', bots.second);
      const post = (accountId: string) => (message: string) => ({
        message,
        accountIds: [accountId],
        postingMode: 'now',
      });
      target = {
        url: env.app.url,
        headers: { authorization: `Bearer ${me.api.token}` },
        otherCaller: { headers: { authorization: `Bearer ${other.api.token}` }, post: post(theirNews) },
        post: post(news),
        invalidPost: (message) => ({
          message,
          accountIds: ['00000000-0000-4000-8000-000000000000'],
          postingMode: 'now',
        }),
        publishedStatus: 201,
        failedStatus: 201,
        ...telegramHooks(env.telegram),
        async draftAction(message) {
          const draft = await me.api.json('/api/v1/posts', {
            json: { message, accountIds: [news], postingMode: 'draft' },
          });
          if (draft.status !== 201) throw new Error(`draft: ${draft.status}`);
          return { path: `/api/v1/posts/${draft.body.id}`, body: { postingMode: 'now' } };
        },
      };
    });
    after(() => env?.stop());

    idempotencyConformance(() => target, { callers: 'many', postActions: true });
  });

  describe(`DatabaseIdempotencyStore (${backend})`, () => {
    let services: ServiceHarness;
    before(async () => {
      services = await startServices(backend, {});
    });
    after(() => services?.stop());

    storeConformance(
      () => new DatabaseIdempotencyStore(services.ctx.db),
      async () => {
        // Keys belong to a member in a workspace: a new user and their personal workspace.
        const id = crypto.randomUUID();
        const now = new Date();
        const row = await insertUser(services.ctx, {
          id,
          email: `${id}@example.com`,
          createdAt: now,
          updatedAt: now,
        });
        return idempotencyScope({ workspaceId: row.currentWorkspaceId!, userId: row.id });
      },
    );
  });
}
