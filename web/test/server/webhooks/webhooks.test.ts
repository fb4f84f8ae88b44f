import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { defaultWebhookRetrySchedule } from '@postwave/shared';
import { startWebhookReceiver, type WebhookReceiver } from '@postwave/shared/testing';
import { eq } from 'drizzle-orm';
import type { AppContext } from '#server/context.ts';
import { webhookDeliveries, webhookEndpoints } from '#server/db/schema.ts';
import { deliverDue } from '#server/webhooks/delivery.ts';
import { emitWebhookEvent } from '#server/webhooks/events.ts';
import {
  createWebhook,
  listDeliveries,
  rotateWebhookSecret,
  updateWebhook,
} from '#server/webhooks/service.ts';
import { WebhookWorker } from '#server/webhooks/worker.ts';
import { signUpWithWorkspace } from '#test/helpers/workspaces.ts';
import { backends } from '../../helpers/databases.ts';
import { type ServiceHarness, startServices } from '../../helpers/service-context.ts';
import { type SmtpSink, startSmtpSink } from '../../helpers/smtp-sink.ts';

const hour = 3_600_000;

/**
 * The delivery worker's decisions against a real database and a real local receiver that
 * verifies signatures with `standardwebhooks`, under a clock the test moves: the retry
 * schedule, disabling after a day of failures, and the rotation overlap.
 */
for (const backend of backends()) {
  describe(`webhook deliveries (${backend})`, () => {
    let receiver: WebhookReceiver;
    let smtp: SmtpSink;
    let harness: ServiceHarness;
    let ctx: AppContext;
    let workspaceId: string;
    let clock: Date;
    const now = () => clock;
    const round = (c = ctx, owner = 'test-worker') =>
      deliverDue(c, { owner, schedule: defaultWebhookRetrySchedule, now, limit: 50 });

    before(async () => {
      receiver = await startWebhookReceiver();
      smtp = await startSmtpSink();
      harness = await startServices(
        backend,
        {
          ALLOW_PRIVATE_HOSTS: new URL(receiver.url).host,
          SMTP_URL: smtp.url,
          MAIL_FROM: 'hooks@example.com',
        },
        3,
      );
      ctx = harness.ctx;
      workspaceId = (
        await signUpWithWorkspace(ctx, {
          email: `hooks-${backend}@example.com`,
          password: 'long enough password',
        })
      ).id;
    });
    after(async () => {
      await harness?.stop();
      await receiver?.close();
      await smtp?.close();
    });
    beforeEach(async () => {
      receiver.received.length = 0;
      receiver.respond = () => 204;
      await ctx.db.delete(webhookEndpoints);
      // A little ahead of the wall clock, so events recorded during the test are already due.
      clock = new Date(Date.now() + 60_000);
    });

    test('a failing receiver is retried on the schedule, then the delivery fails and the endpoint is disabled', async () => {
      const hook = await createWebhook(ctx, workspaceId, {
        url: receiver.url,
        events: ['account.disconnected'],
      });
      receiver.secrets = [hook.secret];
      receiver.respond = () => 500;
      const start = clock;
      await emitWebhookEvent(ctx.db, { workspaceId, type: 'account.disconnected', data: { id: 'a1' } });
      assert.equal(await round(), 1);
      const due = async () => (await ctx.db.select().from(webhookDeliveries))[0]!;
      for (const [i, delay] of defaultWebhookRetrySchedule.entries()) {
        const row = await due();
        assert.equal(row.status, 'pending');
        assert.equal(
          row.nextAttemptAt!.getTime() - clock.getTime(),
          delay,
          `retry ${i + 1} waits ${delay} ms`,
        );
        clock = new Date(row.nextAttemptAt!.getTime() - 1);
        assert.equal(await round(), 0, 'nothing is sent before its time');
        clock = row.nextAttemptAt!;
        assert.equal(await round(), 1);
      }
      const last = await due();
      assert.equal(last.status, 'failed');
      assert.equal(last.attempts, defaultWebhookRetrySchedule.length + 1);
      assert.equal(receiver.received.length, defaultWebhookRetrySchedule.length + 1);
      // Every attempt is the same message, signed so the receiver's library accepts it.
      assert.equal(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size, 1);
      for (const r of receiver.received) assert.deepEqual(r.verifiedWith, [hook.secret]);
      // Failing since the first attempt, for over 24 hours by the last: the endpoint is off.
      assert.ok(clock.getTime() - start.getTime() >= 24 * hour);
      const [endpoint] = await ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, hook.id));
      assert.ok(endpoint!.disabledAt, 'disabled');
      assert.match(endpoint!.disabledReason ?? '', /24 hours/);
      // Its owner is told by e-mail (SMTP is configured here).
      assert.equal(smtp.messages.length, 1);
      assert.match(smtp.messages[0]!, new RegExp(`To: hooks-${backend}@example.com`));
      assert.match(smtp.messages[0]!, /webhook endpoint was turned off/);
      assert.ok(smtp.messages[0]!.includes(receiver.url));
      // A disabled endpoint records no new deliveries until it is turned on again.
      await emitWebhookEvent(ctx.db, { workspaceId, type: 'account.disconnected', data: { id: 'a2' } });
      assert.equal((await ctx.db.select().from(webhookDeliveries)).length, 1);
      const enabled = await updateWebhook(ctx, workspaceId, hook.id, { enabled: true });
      assert.equal(enabled.enabled, true);
      assert.equal(enabled.failingSince, null);
    });

    test('a success within the day starts the failure count over, so the endpoint stays on', async () => {
      const hook = await createWebhook(ctx, workspaceId, {
        url: receiver.url,
        events: ['account.disconnected'],
      });
      receiver.respond = () => 503;
      await emitWebhookEvent(ctx.db, { workspaceId, type: 'account.disconnected', data: {} });
      await round();
      clock = new Date(clock.getTime() + 23 * hour);
      receiver.respond = () => 200;
      await emitWebhookEvent(ctx.db, { workspaceId, type: 'account.disconnected', data: {} });
      await round();
      receiver.respond = () => 503;
      clock = new Date(clock.getTime() + 2 * hour);
      await emitWebhookEvent(ctx.db, { workspaceId, type: 'account.disconnected', data: {} });
      await round();
      const [endpoint] = await ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, hook.id));
      assert.equal(endpoint!.disabledAt, null);
      assert.equal(endpoint!.failingSince?.getTime(), clock.getTime());
    });

    test('after a rotation both secrets sign for 24 hours, then only the new one', async () => {
      const hook = await createWebhook(ctx, workspaceId, {
        url: receiver.url,
        events: ['account.disconnected'],
      });
      const rotated = await rotateWebhookSecret(ctx, workspaceId, hook.id);
      assert.notEqual(rotated.secret, hook.secret);
      assert.ok(rotated.previousSecretExpiresAt);
      receiver.secrets = [hook.secret, rotated.secret];
      await emitWebhookEvent(ctx.db, { workspaceId, type: 'account.disconnected', data: {} });
      await round();
      const [during] = receiver.received;
      assert.equal(during!.headers['webhook-signature']!.split(' ').length, 2);
      assert.deepEqual(during!.verifiedWith, [hook.secret, rotated.secret]);

      clock = new Date(clock.getTime() + 24 * hour + 1000);
      await emitWebhookEvent(ctx.db, { workspaceId, type: 'account.disconnected', data: {} });
      await round();
      const afterOverlap = receiver.received[1]!;
      assert.equal(afterOverlap.headers['webhook-signature']!.split(' ').length, 1);
      assert.deepEqual(afterOverlap.verifiedWith, [rotated.secret]);
    });

    test('an event recorded in a rolled-back transaction is never sent', async () => {
      await createWebhook(ctx, workspaceId, { url: receiver.url, events: ['account.disconnected'] });
      await assert.rejects(
        ctx.db.transaction(async (tx) => {
          await emitWebhookEvent(tx as never, { workspaceId, type: 'account.disconnected', data: {} });
          throw new Error('the change failed');
        }),
        /the change failed/,
      );
      assert.equal(await round(), 0);
      assert.equal(receiver.received.length, 0);
    });

    test('the worker wakes when a transaction that recorded an event commits', async () => {
      const hook = await createWebhook(ctx, workspaceId, {
        url: receiver.url,
        events: ['account.disconnected'],
      });
      receiver.secrets = [hook.secret];
      const worker = new WebhookWorker(ctx);
      worker.start();
      try {
        // Let the worker go to sleep first (its safety-net poll is a minute away).
        await new Promise((r) => setTimeout(r, 300));
        await ctx.db.transaction(async (tx) => {
          await emitWebhookEvent(tx as never, { workspaceId, type: 'account.disconnected', data: { n: 1 } });
        });
        const [got] = await receiver.waitFor(1, 10_000);
        assert.deepEqual((got!.payload as { data: unknown }).data, { n: 1 });
      } finally {
        await worker.stop();
      }
    });

    test('workers on several instances send each delivery once', async () => {
      await createWebhook(ctx, workspaceId, { url: receiver.url, events: ['account.disconnected'] });
      for (let i = 0; i < 30; i++)
        await emitWebhookEvent(ctx.db, { workspaceId, type: 'account.disconnected', data: { i } });
      const rounds = harness.contexts.flatMap((c, n) => [round(c, `w${n}a`), round(c, `w${n}b`)]);
      const claimed = (await Promise.all(rounds)).reduce((a, b) => a + b, 0);
      assert.equal(claimed, 30);
      assert.equal(receiver.received.length, 30);
      const page = await listDeliveries(
        ctx,
        workspaceId,
        (await ctx.db.select().from(webhookEndpoints))[0]!.id,
        {
          limit: 200,
        },
      );
      assert.ok(page.deliveries.every((d) => d.status === 'delivered' && d.attemptLog.length === 1));
    });
  });
}
