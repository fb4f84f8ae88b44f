import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ProblemError, platformModules } from '@postwave/shared';
import { getAccountRow } from '#server/accounts/list-accounts.ts';
import { listOptionChoices } from '#server/accounts/option-choices.ts';
import type { AppContext } from '#server/context.ts';
import { preparePost } from '#server/posts/prepare.ts';
import { signUpWithWorkspace } from '#test/helpers/workspaces.ts';
import { backends } from '../../helpers/databases.ts';
import {
  connectLoginSpaces,
  type FakeLogin,
  loginPlatformModule,
  startFakeLogin,
} from '../../helpers/login-platform.ts';
import { type ServiceHarness, startServices } from '../../helpers/service-context.ts';

/*
 * Option choices loaded from the platform (`choicesFrom`, contract section C), for the composer's
 * select and for validation: one account's own choices, narrowed by a `dependsOn` field, cached
 * briefly, rate-limited per user, and a refused token taking the account to needs_reconnect.
 * A test-only platform whose spaces have collections, and collections shelves.
 */
for (const backend of backends()) {
  describe(`option choices from the platform (${backend})`, () => {
    let fake: FakeLogin;
    let harness: ServiceHarness;
    let ctx: AppContext;
    let workspaceId: string;
    let spaceA: string;
    let spaceB: string;

    before(async () => {
      fake = await startFakeLogin();
      harness = await startServices(backend, {}, 1, {
        platforms: [...platformModules, loginPlatformModule(fake)],
      });
      ctx = harness.ctx;
      workspaceId = (
        await signUpWithWorkspace(ctx, {
          email: `choices-${backend}@example.com`,
          password: 'long enough password',
        })
      ).id;
      [spaceA, spaceB] = (await connectLoginSpaces(ctx, workspaceId)) as [string, string];
    });
    after(async () => {
      await harness?.stop();
      await fake?.close();
    });

    const list = (accountId: string, field: string, query = '', owner = workspaceId) =>
      listOptionChoices(ctx, owner, accountId, field, new URLSearchParams(query));
    const asked = (path: RegExp) => fake.server.requests.filter((r) => path.test(r.path)).length;
    const problemOf = async (promise: Promise<unknown>) => {
      try {
        await promise;
      } catch (error) {
        if (error instanceof ProblemError)
          return {
            status: error.status,
            code: error.problem.code,
            headers: error.headers,
            hint: error.problem.hint,
            issueHints: error.problem.errors?.map((issue) => issue.hint),
          };
        throw error;
      }
      assert.fail('expected a problem');
    };

    test('each account lists its own choices; a dependent field those of the value it depends on', async () => {
      assert.deepEqual(await list(spaceA, 'collection'), {
        choices: [
          { value: 'c1', label: 'Recipes' },
          { value: 'c2', label: 'Travel' },
        ],
      });
      assert.deepEqual(await list(spaceB, 'collection'), { choices: [{ value: 'c3', label: 'Music' }] });
      assert.deepEqual(await list(spaceA, 'shelf', 'collection=c1'), {
        choices: [{ value: 's1', label: 'Soups' }],
      });
      assert.deepEqual(await list(spaceA, 'shelf'), { choices: [] });
    });

    test('answers are cached per account, field and dependsOn value', async () => {
      const before = asked(/\/shelves$/);
      await list(spaceA, 'shelf', 'collection=c2');
      await list(spaceA, 'shelf', 'collection=c2&unrelated=1');
      assert.equal(asked(/\/shelves$/), before + 1);
      await list(spaceA, 'shelf', 'collection=c1x');
      assert.equal(asked(/\/shelves$/), before + 2);
    });

    test('another user’s account, an unknown field and a field without choices from the platform are 404', async () => {
      const other = (
        await signUpWithWorkspace(ctx, {
          email: `other-${backend}@example.com`,
          password: 'long enough password',
        })
      ).id;
      assert.equal((await problemOf(list(spaceA, 'collection', '', other))).status, 404);
      assert.equal((await problemOf(list(spaceA, 'nope'))).status, 404);
      assert.equal((await problemOf(list('not-a-uuid', 'collection'))).status, 404);
    });

    test('validation refuses a value the platform does not offer, unless the field allows custom text', async () => {
      const prepare = (options: Record<string, unknown>) =>
        preparePost(ctx, workspaceId, {
          message: 'hi',
          accountIds: [spaceA],
          media: [],
          accountOptions: { [spaceA]: options },
        });
      const ok = await prepare({ collection: 'c1', shelf: 's1', note: 'my own words' });
      assert.equal(ok.validation.valid, true, JSON.stringify(ok.validation));
      const refused = await prepare({ collection: 'c3' });
      assert.deepEqual(
        refused.validation.results[0]!.errors.map((e) => [e.code, e.path]),
        [['option_not_offered', `accountOptions.${spaceA}.collection`]],
      );
    });

    test('a platform asking to wait is a 429 with its Retry-After', async () => {
      fake.server.inject({ path: /\/shelves$/, status: 429, headers: { 'retry-after': '17' }, json: {} });
      const waited = await problemOf(list(spaceB, 'shelf', 'collection=yy'));
      assert.deepEqual(
        [waited.status, waited.code, waited.headers['retry-after']],
        [429, 'rate_limited', '17'],
      );
      // Contract F: a platform's failure says what to do, on the problem and on its issue.
      assert.match(waited.hint ?? '', /wait a few minutes, then try again/);
      assert.deepEqual(waited.issueHints, [waited.hint]);
    });

    test('a platform failing on its side is a 502 that says to wait and try again', async () => {
      fake.server.inject({ path: /\/shelves$/, status: 503, json: {} });
      const failed = await problemOf(list(spaceB, 'shelf', 'collection=down'));
      assert.deepEqual([failed.status, failed.code], [502, 'publish_failed']);
      assert.match(failed.hint ?? '', /wait a moment, then try again/);
      assert.deepEqual(failed.issueHints, [failed.hint]);
    });

    test('each user may make 60 uncached asks a minute; cached answers stay free', async () => {
      // A user of their own, so the asks of the other tests do not count.
      const busy = (
        await signUpWithWorkspace(ctx, {
          email: `busy-${backend}@example.com`,
          password: 'long enough password',
        })
      ).id;
      const [space] = await connectLoginSpaces(ctx, busy);
      for (let i = 0; i < 60; i++) await list(space!, 'shelf', `collection=burst${i}`, busy);
      const limited = await problemOf(list(space!, 'shelf', 'collection=burst60', busy));
      assert.deepEqual(
        [limited.status, limited.code, limited.headers['retry-after']],
        [429, 'rate_limited', '60'],
      );
      assert.deepEqual(await list(space!, 'shelf', 'collection=burst0', busy), { choices: [] });
      // Another user is not held up by this one.
      assert.equal((await list(spaceA, 'shelf', 'collection=c1')).choices.length, 1);
    });

    test('a refused token marks the login needs_reconnect, and the account then answers 422 at once', async () => {
      fake.revoke();
      const refused = await problemOf(list(spaceB, 'shelf', 'collection=after-revoke'));
      assert.deepEqual([refused.status, refused.code], [422, 'credentials_invalid']);
      assert.match(refused.hint ?? '', /reconnect the account/);
      assert.deepEqual(refused.issueHints, [refused.hint]);
      assert.equal((await getAccountRow(ctx, workspaceId, spaceA))!.status, 'needs_reconnect');
      assert.equal((await getAccountRow(ctx, workspaceId, spaceB))!.status, 'needs_reconnect');
      const before = fake.server.requests.length;
      const known = await problemOf(list(spaceA, 'shelf', 'collection=new'));
      assert.equal(known.code, 'credentials_invalid');
      assert.match(known.hint ?? '', /reconnect the account/);
      assert.equal(fake.server.requests.length, before, 'no call for an account known to need reconnecting');
    });
  });
}
