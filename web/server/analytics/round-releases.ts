import type { AccountRelease, ClaimedTarget } from './collect-queue.ts';
import type { TargetOutcome } from './collect-repository.ts';

/*
 * What a collection round leaves of the accounts it held (docs/analytics.md#collection), so they
 * are given back due at their earliest entry without reading the entries again.
 */

/** A round's outcomes, and when the accounts whose targets were postponed are due again. */
export interface RoundOutcomes {
  outcomes: TargetOutcome[];
  failed: number;
  postponed: Map<string, Date>;
}

/**
 * What a round leaves of each account it held, for giving them back (`releaseAccounts`): the
 * entry its claim did not take, its outcomes' next entries, and the entries of its targets
 * without an outcome (postponed, or still at their due time when the account's job failed).
 */
export function releasesOf(claimed: readonly ClaimedTarget[], round: RoundOutcomes): AccountRelease[] {
  const ofAccount = new Map<string, { written: number; next: number }>();
  for (const o of round.outcomes) {
    const account = ofAccount.get(o.accountId) ?? { written: 0, next: Infinity };
    ofAccount.set(o.accountId, account);
    account.written++;
    if (o.state === 'collecting' && o.nextCollectAt)
      account.next = Math.min(account.next, o.nextCollectAt.getTime());
  }
  const releases: AccountRelease[] = [];
  for (const [accountId, targets] of Map.groupBy(claimed, (t) => t.accountId)) {
    releases.push({ accountId, at: targets[0]!.accountNextDue });
    const { written = 0, next = Infinity } = ofAccount.get(accountId) ?? {};
    if (next !== Infinity) releases.push({ accountId, at: new Date(next).toISOString() });
    const postponed = round.postponed.get(accountId);
    if (postponed) releases.push({ accountId, at: postponed.toISOString() });
    else if (written < targets.length) {
      // Some targets have no outcome (the account's job failed): their entries stay as they were.
      const done = new Set(round.outcomes.filter((o) => o.accountId === accountId).map((o) => o.postId));
      for (const t of targets) if (!done.has(t.postId)) releases.push({ accountId, at: t.dueAt });
    }
  }
  return releases;
}
