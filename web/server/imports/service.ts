import { createHash } from 'node:crypto';
import { ProblemError, type ProblemIssue, parseOffsetDateTime, withDeadline } from '@postwave/shared';
import type { AccountCache } from '#server/accounts/list-accounts.ts';
import { accountsOf } from '#server/accounts/repository.ts';
import { recordApprovalStep } from '#server/approvals/record.ts';
import { type AuditActor, systemActor } from '#server/audit/actor.ts';
import { recordAudit } from '#server/audit/record-audit.ts';
import type { AppContext } from '#server/context.ts';
import type { Db } from '#server/db/access.ts';
import type { ApprovalActor, StoredMedia, StoredOverride, StoredThreadPart } from '#server/db/schema.ts';
import { announceDue } from '#server/dispatch/wakeups.ts';
import { pastTimeIssue } from '#server/posts/guards.ts';
import { publishabilityIssues } from '#server/posts/prepare.ts';
import { insertPost, insertPosts } from '#server/posts/repository.ts';
import { withQueueLock } from '#server/queue/repository.ts';
import { nextQueueSlot } from '#server/queue/service.ts';
import { nameAccountsInIssues } from './account-names.ts';
import { accountMatcher } from './accounts.ts';
import { importAuditEntries } from './import-audit.ts';
import { budgetIssue, mediaOutcomeFor, resolveImportMedia } from './media.ts';
import type { ImportMediaItem, ImportRowInput } from './parse.ts';
import { type ImportedPost, plannedRows, type ResolvedRow } from './planned-rows.ts';
import { commitImport, findImport } from './repository.ts';
import type { ImportReport } from './schema.ts';

export type ImportFormat = 'csv' | 'json';

/** Thrown inside the commit to roll it back when a queued row finds no slot. */
class QueueRowRefused extends Error {}

/** Same format and bytes, same digest: the unit of "idempotent per file". */
export function importDigest(format: ImportFormat, body: string): string {
  return createHash('sha256').update(`${format}\n${body}`).digest('hex');
}

/**
 * Checks every row (accounts, date, mode, duplicates, media, and for scheduled and queued rows the
 * same per-platform validation as `POST /api/v1/posts`) and, unless `dryRun`, creates all the posts
 * in one transaction when every row is valid. Queued rows take their slots in that transaction,
 * under the user's queue lock, in file order. A file committed before answers its stored report.
 */
export async function importPosts(
  ctx: AppContext,
  workspaceId: string,
  input: {
    format: ImportFormat;
    body: string;
    rows: ImportRowInput[];
    dryRun: boolean;
    authorId?: string;
    /** Who imports (each post's `post.created` audit entry); the service itself when not given. */
    actor?: AuditActor;
    /**
     * The importer when the workspace's approvals apply to them (a contributor always, everyone
     * under `everyone`): their scheduled and queued rows become submissions, as a request to
     * schedule or queue would (contract G), and take no queue slot until approved.
     */
    submitAs?: ApprovalActor;
  },
): Promise<ImportReport> {
  const digest = importDigest(input.format, input.body);
  if (!input.dryRun) {
    const earlier = await findImport(ctx, workspaceId, digest);
    if (earlier) return { rows: earlier, committed: true };
  }
  // The budget covers downloads and row checks; the commit itself, when every row is valid, is
  // one short transaction and runs to its end (docs/import-export.md#time-budget).
  const budget = withDeadline(undefined, ctx.config.imports.timeBudgetMs);
  let resolved: ResolvedRow[];
  try {
    resolved = await resolveRows(ctx, workspaceId, input.rows, input.dryRun, budget.signal);
  } finally {
    budget.dispose();
  }
  const rows = resolved.map((r) => r.report);
  if (budget.timedOut) return { rows, committed: false, timeBudgetExceeded: true };
  if (input.dryRun || rows.some((r) => !r.valid)) return { rows, committed: false };

  const now = Date.now();
  const due: Date[] = [];
  const commit = async (db: Db) =>
    commitImport(db, { workspaceId, digest, rows: () => rows }, async (tx) => {
      const { ready, queued, submitted } = plannedRows(resolved, {
        workspaceId,
        authorId: input.authorId,
        submitAs: input.submitAs,
        now,
      });
      await insertPosts(tx, ready);
      // Submissions one by one: each gets its `submitted` timeline event and `post.submitted` webhook.
      for (const values of submitted)
        await recordApprovalStep(ctx, tx, await insertPost(tx, values), 'submitted', input.submitAs!);
      // After the fixed-time rows: a queued row never takes a slot a row of the file holds.
      for (const { row, values } of queued) {
        let when: Date;
        try {
          when = await nextQueueSlot(tx, workspaceId, values.accountIds, {
            notBefore: row.post!.scheduledAt ?? undefined,
          });
        } catch (error) {
          if (!(error instanceof ProblemError)) throw error;
          row.report.valid = false;
          row.report.errors.push(
            ...(error.problem.errors ?? [{ code: error.problem.code, message: error.problem.detail }]),
          );
          throw new QueueRowRefused();
        }
        await insertPosts(tx, [{ ...values, status: 'scheduled', scheduledAt: when, nextAttemptAt: when }]);
        due.push(when);
      }
      for (const p of ready) if (p.nextAttemptAt) due.push(p.nextAttemptAt);
      // Committed with the import (all or nothing).
      await recordAudit(
        tx,
        importAuditEntries(resolved, {
          workspaceId,
          actor: input.actor ?? systemActor,
          submitting: input.submitAs !== undefined,
        }),
      );
    });
  let committed: boolean;
  try {
    committed = resolved.some((r) => r.post?.status === 'queue' && !input.submitAs)
      ? await withQueueLock(ctx, workspaceId, commit)
      : await commit(ctx);
  } catch (error) {
    if (!(error instanceof QueueRowRefused)) throw error;
    for (const row of rows) delete row.postId;
    return { rows, committed: false };
  }
  if (!committed) {
    // The same file was committed by a concurrent request: answer what it created.
    return { rows: (await findImport(ctx, workspaceId, digest)) ?? rows, committed: true };
  }
  if (due.length) await announceDue(ctx, new Date(Math.min(...due.map((d) => d.getTime()))));
  return { rows, committed: true };
}

async function resolveRows(
  ctx: AppContext,
  workspaceId: string,
  inputs: ImportRowInput[],
  dryRun: boolean,
  budget: AbortSignal,
): Promise<ResolvedRow[]> {
  const accounts = await accountsOf(ctx, workspaceId);
  const match = accountMatcher(accounts);
  const media = await resolveImportMedia(ctx, workspaceId, inputs, budget);
  const cache: AccountCache = new Map();
  const seen = new Map<string, number>();
  const out: ResolvedRow[] = [];
  for (const row of inputs) {
    const errors: ProblemIssue[] = [...row.errors];
    if (budget.aborted) {
      // Not checked at all: saying "valid" or naming a lesser error would mislead.
      errors.push(budgetIssue(ctx.config.imports.timeBudgetMs, `Row ${row.index} was not checked`));
      out.push({ report: { index: row.index, valid: false, errors }, post: undefined });
      continue;
    }
    const targets = new Map<string, { id: string; platform: string; ref: string }>();
    for (const ref of row.accountRefs) {
      const found = match(ref);
      if ('error' in found) {
        errors.push({
          path: 'accounts',
          code: found.error,
          message:
            found.error === 'account_ambiguous'
              ? `"${ref}" names several of your accounts (${found.candidates.join('; ')}): write the full handle, with its instance, or <platform>:<handle>`
              : `None of your accounts has the handle "${ref}": use a handle shown on the Accounts page, such as @news`,
        });
      } else targets.set(found.account.id, { id: found.account.id, platform: found.account.platform, ref });
    }
    const accountIds = [...targets.keys()];

    let scheduledAt: Date | undefined;
    if (row.scheduledAt !== undefined) {
      scheduledAt = parseOffsetDateTime(row.scheduledAt);
      if (!scheduledAt)
        errors.push({
          path: 'scheduledAt',
          code: 'invalid_datetime',
          message: `"${row.scheduledAt}" is not an ISO 8601 date-time with an offset (e.g. 2026-12-01T09:30:00+01:00)`,
        });
    }
    const mode = row.postingMode ?? (row.scheduledAt !== undefined ? 'schedule' : 'draft');
    if (mode !== 'draft' && mode !== 'schedule' && mode !== 'queue') {
      errors.push({
        path: 'postingMode',
        code: 'invalid_posting_mode',
        message:
          'An import creates drafts, scheduled or queued posts: postingMode is draft, schedule or queue',
      });
    }
    // Every post goes to at least one account, a draft included, as POST /api/v1/posts requires.
    if (row.accountRefs.length === 0)
      errors.push({ path: 'accounts', code: 'required', message: 'A row needs at least one account' });
    if (mode === 'schedule') {
      if (row.scheduledAt === undefined)
        errors.push({ path: 'scheduledAt', code: 'required', message: 'A scheduled row needs scheduledAt' });
      else if (scheduledAt) {
        const past = pastTimeIssue(scheduledAt);
        if (past) errors.push(past);
      }
      if (row.accountRefs.length === 0)
        errors.push({
          path: 'accounts',
          code: 'required',
          message: 'A scheduled row needs at least one account',
        });
    }

    const accountOptions: Record<string, Record<string, unknown>> = {};
    for (const [ref, options] of Object.entries(row.options)) {
      const direct = targets.get(ref) ?? [...targets.values()].find((t) => t.ref === ref);
      const found = direct ? [direct] : [...targets.values()].filter((t) => t.platform === ref);
      if (found.length === 0) {
        errors.push({
          path: `options.${ref}`,
          code: 'option_target_unknown',
          message: `Options for "${ref}", which is none of this row's accounts or their platforms`,
        });
      }
      for (const t of found) accountOptions[t.id] = { ...accountOptions[t.id], ...options };
    }

    const storedAt = (items: readonly ImportMediaItem[], path: string): StoredMedia[] => {
      const out: StoredMedia[] = [];
      items.forEach((item, m) => {
        const outcome = mediaOutcomeFor(media, item);
        if ('media' in outcome) out.push(outcome.media);
        else errors.push({ ...outcome.error, path: `${path}[${m}]` });
      });
      return out;
    };
    const stored = storedAt(row.media, 'media');

    // Overrides name accounts as the row does (id or handle); each must be one of the row's.
    const overrides: Record<string, StoredOverride> = {};
    for (const [ref, given] of Object.entries(row.overrides)) {
      const target = targets.get(ref) ?? [...targets.values()].find((t) => t.ref === ref);
      if (!target) {
        errors.push({
          path: `overrides.${ref}`,
          code: 'override_unknown_account',
          message: `An override for "${ref}", which is none of this row's accounts`,
        });
        continue;
      }
      overrides[target.id] = {
        ...(given.message !== undefined ? { message: given.message } : {}),
        ...(given.media !== undefined ? { media: storedAt(given.media, `overrides.${ref}.media`) } : {}),
      };
    }
    const thread: StoredThreadPart[] = row.thread.map((part, i) => ({
      message: part.message,
      media: storedAt(part.media, `thread[${i}].media`),
    }));

    const fingerprint = JSON.stringify([
      row.message,
      [...accountIds].sort(),
      scheduledAt?.toISOString() ?? null,
      stored.map((s) => s.key),
      overrides,
      thread.map((p) => [p.message, p.media.map((m) => m.key)]),
    ]);
    const first = seen.get(fingerprint);
    if (first !== undefined)
      errors.push({
        code: 'duplicate_row',
        message: `Row ${first} has the same message, accounts, time and media`,
      });
    else seen.set(fingerprint, row.index);

    const content = { message: row.message, accountIds, media: stored, accountOptions, overrides, thread };
    const recycle = row.recycle ?? null;
    // Scheduled and queued rows get exactly the checks POST /api/v1/posts makes before scheduling.
    if (errors.length === 0 && (mode === 'schedule' || mode === 'queue')) {
      errors.push(...(await publishabilityIssues(ctx, workspaceId, content, cache)));
    }
    // A dry run tells whether the queues have a slot; the commit takes the slots for real.
    if (errors.length === 0 && mode === 'queue' && dryRun) {
      try {
        await nextQueueSlot(ctx, workspaceId, accountIds, { notBefore: scheduledAt });
      } catch (error) {
        if (!(error instanceof ProblemError)) throw error;
        errors.push(
          ...(error.problem.errors ?? [{ code: error.problem.code, message: error.problem.detail }]),
        );
      }
    }

    const valid = errors.length === 0;
    const post: ImportedPost | undefined = !valid
      ? undefined
      : mode === 'queue'
        ? { ...content, recycle, status: 'queue', scheduledAt }
        : mode === 'schedule'
          ? { ...content, recycle, status: 'scheduled', scheduledAt: scheduledAt! }
          : { ...content, recycle, status: 'draft', scheduledAt: scheduledAt ?? null };
    out.push({ report: { index: row.index, valid, errors: nameAccountsInIssues(errors, accounts) }, post });
  }
  return out;
}
