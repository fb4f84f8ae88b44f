import {
  type AnyPublisher,
  canonicalMetrics,
  engagementOf,
  nextCollection,
  type PlatformAccount,
  type PostMetricsResult,
} from '@postwave/shared';
import { toPlatformAccount } from '#server/accounts/credentials.ts';
import { type AccountRow, findAccountById } from '#server/accounts/repository.ts';
import type { AppContext } from '#server/context.ts';
import { isShuttingDown } from '#server/lifecycle/shutdown.ts';
import { collectClicks } from '#server/links/collect-clicks.ts';
import { type ClaimedTarget, claimDueTargets, releaseAccounts } from './collect-queue.ts';
import {
  accountRowsById,
  postponeTargets,
  recordTargetOutcomes,
  type TargetOutcome,
} from './collect-repository.ts';
import { type CollectWorkers, startCollectWorkers } from './collect-workers.ts';
import { callInSlot, retryDelayMs } from './platform-call.ts';
import { type RoundOutcomes, releasesOf } from './round-releases.ts';

/*
 * Collecting posted targets' figures (docs/analytics.md#collection): claim due targets, group them
 * by account, ask each account's platform in its batch size, write every outcome of an account in
 * one statement. A deleted remote post stops its collection (`gone`); a target the platform did
 * not report this time moves on to its next collection; a failed call hands the account's targets
 * back for later at the same step.
 */

export interface CollectOptions {
  /** Who holds the leases (one per instance and run). */
  owner: string;
  /** Targets claimed per round. */
  batch?: number;
  /** Accounts collected at once. */
  concurrency?: number;
  leaseMs?: number;
  /** Only this post's targets (a refresh). */
  postId?: string;
  /** When this many rounds ran, stop (the next tick continues). */
  maxRounds?: number;
}

export interface CollectSummary {
  targets: number;
  collected: number;
  gone: number;
  failed: number;
}

/** The offsets after posting at which targets are collected (ANALYTICS_COLLECT_AFTER). */
export function collectionOffsets(ctx: AppContext): readonly number[] {
  return ctx.config.analytics.collectAfterMs;
}

/**
 * Rounds whose outcome writes may run at once. One at a time, the writes set the pace (about 50 ms
 * per 1,000 targets, one database core) while the other core idled; three use both cores: 100,000
 * targets in 6.0-6.2 s instead of 8.6-8.8 s, with the same CPU per target (bench/analytics-collect).
 */
const outcomeWritesInFlight = 3;

/** Collects due targets until none is due (or `maxRounds` ran); never throws for a platform's failure. */
export async function collectDueMetrics(ctx: AppContext, options: CollectOptions): Promise<CollectSummary> {
  const summary: CollectSummary = { targets: 0, collected: 0, gone: 0, failed: 0 };
  const batch = options.batch ?? 500;
  const claim = () =>
    claimDueTargets(ctx, options.owner, {
      limit: batch,
      leaseMs: options.leaseMs ?? 300_000,
      ...(options.postId ? { postId: options.postId } : {}),
    });
  // Rounds overlap in three stages: the next round is claimed while this one's accounts are asked,
  // and its outcomes are written (then its accounts given back) while the next ones are asked, up
  // to `outcomeWritesInFlight` rounds' writes at once. Claimed accounts are leased, so a claim
  // ahead never takes a target twice and rounds' writes touch disjoint rows (targets, rollups and
  // queue rows are per account); a claim finds nothing when the accounts still due are the rounds'
  // in flight, so an empty claim is made again once those are given back, and only then ends the run.
  const maxRounds = options.maxRounds ?? 20;
  let claiming: Promise<ClaimedTarget[]> | undefined = isShuttingDown() ? undefined : claim();
  const writing: Promise<void>[] = [];
  const workers = startCollectWorkers(ctx, options.concurrency ?? 4);
  try {
    for (let round = 0; claiming; round++) {
      let claimed = await claiming;
      claiming = undefined;
      if (claimed.length === 0 && writing.length > 0 && !isShuttingDown()) {
        await Promise.all(writing.splice(0));
        claimed = await claim();
      }
      if (claimed.length === 0) break;
      summary.targets += claimed.length;
      if (round + 1 < maxRounds && !isShuttingDown()) {
        claiming = claim();
        // Awaited by the next round; its failure is that round's to throw, never unhandled.
        claiming.catch(() => {});
      }
      const collected = await collectRound(ctx, options.owner, workers, claimed);
      summary.failed += collected.failed;
      const { outcomes } = collected;
      if (writing.length >= outcomeWritesInFlight) await writing.shift();
      const releases = releasesOf(claimed, collected);
      const write = recordTargetOutcomes(ctx, options.owner, outcomes, new Date()).then(async () => {
        summary.collected += outcomes.filter((o) => o.metrics).length;
        summary.gone += outcomes.filter((o) => o.state === 'gone').length;
        await releaseAccounts(ctx, options.owner, releases);
      });
      write.catch(() => {});
      writing.push(write);
    }
  } finally {
    await workers.close();
    // A round claimed ahead when an earlier one threw keeps its leases until they run out.
    await claiming?.catch(() => {});
    await Promise.all(writing);
  }
  return summary;
}

/** What collecting one account of a round came to: outcomes to write, or its targets postponed. */
interface AccountOutcomes {
  outcomes: TargetOutcome[];
  failed: number;
  /** When its targets were postponed to (nothing collected). */
  postponedUntil?: Date;
}

/** An account of a round with its claimed targets and what to collect them with. */
interface AccountGroup {
  targets: ClaimedTarget[];
  account: PlatformAccount | undefined | 'later';
}

/**
 * One round: its accounts in one query, its short links' clicks in one pass, each account's
 * platform asked by the run's workers: the outcomes to write in one statement.
 */
async function collectRound(
  ctx: AppContext,
  owner: string,
  workers: CollectWorkers,
  claimed: readonly ClaimedTarget[],
): Promise<RoundOutcomes> {
  const byAccount = Map.groupBy(claimed, (t) => t.accountId);
  const rows = new Map((await accountRowsById(ctx, [...byAccount.keys()])).map((r) => [r.id, r]));
  const groups: AccountGroup[] = await Promise.all(
    [...byAccount.values()].map(async (targets) => ({
      targets,
      account: await platformAccountOf(ctx, rows.get(targets[0]!.accountId)),
    })),
  );
  // Clicks of the accounts that are asked (not of those removed or waiting for a reconnect),
  // while the platforms are; an account whose clicks cannot be read waits like a failed call.
  const clicks = collectClicks(
    ctx,
    groups.flatMap((g) => (typeof g.account === 'object' ? g.targets : [])),
  );
  clicks.catch(() => {});
  const result: RoundOutcomes = { outcomes: [], failed: 0, postponed: new Map() };
  await workers.add(
    groups.map((group) => ({
      platform: group.targets[0]!.platform,
      run: async () => {
        const done = await collectAccount(ctx, owner, group, clicks);
        result.outcomes.push(...done.outcomes);
        result.failed += done.failed;
        if (done.postponedUntil) result.postponed.set(group.targets[0]!.accountId, done.postponedUntil);
      },
    })),
  );
  return result;
}

/** One account's claimed targets asked in batches: their outcomes, for the round to write. */
async function collectAccount(
  ctx: AppContext,
  owner: string,
  { targets, account }: AccountGroup,
  clicksOfRound: Promise<Map<string, number>>,
): Promise<AccountOutcomes> {
  const platform = targets[0]!.platform;
  const publisher = ctx.publishers.get(platform);
  if (account === 'later') {
    // Needs reconnecting (or its credentials cannot be read): its figures wait for the reconnect.
    const until = new Date(Date.now() + 24 * 3_600_000);
    await postponeTargets(ctx, owner, targets, until);
    return { outcomes: [], failed: targets.length, postponedUntil: until };
  }
  if (!account) {
    // The account was removed: nothing more will come.
    return {
      outcomes: targets.map((t) => ({ ...keyOf(t), state: 'done', step: t.step, nextCollectAt: null })),
      failed: 0,
    };
  }
  try {
    // Short links' clicks (docs/links.md) come from the shortener, on the same schedule; a
    // platform without post metrics of its own is collected for them alone.
    const [answers, clicks] = await Promise.all([
      publisher?.metrics ? askInBatches(ctx, publisher, account, targets) : undefined,
      clicksOfRound,
    ]);
    const now = Date.now();
    return {
      outcomes: targets.map((t) => {
        const counted = clicks.size > 0 ? clicks.get(`${t.postId} ${t.accountId}`) : undefined;
        // A platform without post metrics of its own reports only clicks: none counted this time
        // (the shortener failed or was removed meanwhile) writes no figures and keeps the
        // schedule, as a platform's missing answer does, rather than ending the target's collection.
        const answer = answers
          ? answers.get(t.platformPostId)
          : counted === undefined
            ? undefined
            : { state: 'ok' as const, metrics: {} };
        return outcomeOf(t, withClicks(answer, counted), now, ctx);
      }),
      failed: 0,
    };
  } catch (error) {
    ctx.logger.warn(
      { err: error, accountId: account.id, platform, targets: targets.length },
      'collecting post metrics failed; trying again later',
    );
    const until = new Date(Date.now() + retryDelayMs(error));
    await postponeTargets(ctx, owner, targets, until);
    return { outcomes: [], failed: targets.length, postponedUntil: until };
  }
}

async function askInBatches(
  ctx: AppContext,
  publisher: AnyPublisher,
  account: PlatformAccount,
  targets: readonly ClaimedTarget[],
): Promise<Map<string, PostMetricsResult>> {
  const size = Math.max(1, publisher.metricsBatchSize ?? 1);
  const answers = new Map<string, PostMetricsResult>();
  for (let i = 0; i < targets.length; i += size) {
    const slice = targets
      .slice(i, i + size)
      .map((t) => ({ platformPostId: t.platformPostId, ...(t.url ? { url: t.url } : {}) }));
    const answer = await callInSlot(ctx, publisher, account, (context) =>
      publisher.metrics!(slice, account, context),
    );
    for (const [id, result] of answer) answers.set(id, result);
  }
  return answers;
}

function outcomeOf(
  target: ClaimedTarget,
  answer: PostMetricsResult | undefined,
  now: number,
  ctx: AppContext,
): TargetOutcome {
  const { postId, accountId, dueAt } = target;
  if (answer?.state === 'gone')
    return { postId, accountId, dueAt, state: 'gone', step: target.step, nextCollectAt: null };
  const offsets = collectionOffsets(ctx);
  const next = nextCollection(target.postedAt.getTime(), now, offsets);
  const state = next ? 'collecting' : 'done';
  const step = next?.step ?? offsets.length;
  const nextCollectAt = next ? new Date(next.at) : null;
  if (!answer) return { postId, accountId, dueAt, state, step, nextCollectAt };
  const metrics = canonicalMetrics(answer.metrics);
  return {
    postId,
    accountId,
    dueAt,
    state,
    step,
    nextCollectAt,
    metrics,
    engagement: engagementOf(metrics) ?? null,
  };
}

/** The platform's answer with the short links' clicks added (an answer the platform did not give stays absent). */
function withClicks(
  answer: PostMetricsResult | undefined,
  clicks: number | undefined,
): PostMetricsResult | undefined {
  if (!answer || answer.state === 'gone' || clicks === undefined) return answer;
  return { ...answer, metrics: { ...answer.metrics, clicks } };
}

const keyOf = (t: ClaimedTarget) => ({ postId: t.postId, accountId: t.accountId, dueAt: t.dueAt });

/** The account to collect with; undefined when it was removed; `later` while it needs reconnecting. */
export async function loadAccount(
  ctx: AppContext,
  accountId: string,
): Promise<PlatformAccount | undefined | 'later'> {
  return platformAccountOf(ctx, await findAccountById(ctx, accountId));
}

async function platformAccountOf(
  ctx: AppContext,
  row: AccountRow | undefined,
): Promise<PlatformAccount | undefined | 'later'> {
  if (!row) return undefined;
  if (row.status !== 'active') return 'later';
  try {
    return await toPlatformAccount(ctx, row);
  } catch {
    // Unreadable with the current keys (docs/scheduler.md, key rotation): only a reconnect helps.
    return 'later';
  }
}
