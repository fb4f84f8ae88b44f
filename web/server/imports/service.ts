import { createHash } from 'node:crypto';
import { type ProblemIssue, parseOffsetDateTime } from '@postwave/shared';
import { accountsOf } from '#server/accounts/repository.ts';
import { type AccountCache, accountLookup } from '#server/accounts/service.ts';
import type { AppContext } from '#server/context.ts';
import type { StoredMedia } from '#server/db/schema.ts';
import { announceDue } from '#server/dispatch/wakeups.ts';
import { postingServiceFor, validationIssues } from '#server/posts/publishing.ts';
import { accountMatcher } from './accounts.ts';
import { mediaOutcomeFor, resolveImportMedia } from './media.ts';
import type { ImportRowInput } from './parse.ts';
import { commitImport, findImport, type NewPost } from './repository.ts';
import type { ImportReport, ImportRowReport } from './schema.ts';

export type ImportFormat = 'csv' | 'json';

/** A row ready to become a post, once every row is valid. */
interface ResolvedRow {
  report: ImportRowReport;
  post: Omit<NewPost, 'id' | 'userId' | 'createdAt' | 'updatedAt'> | undefined;
}

/** Same format and bytes, same digest: the unit of "idempotent per file". */
export function importDigest(format: ImportFormat, body: string): string {
  return createHash('sha256').update(`${format}\n${body}`).digest('hex');
}

/**
 * Checks every row (accounts, date, mode, duplicates, media, and for scheduled rows the same
 * per-platform validation as `POST /api/v1/posts`) and, unless `dryRun`, creates all the posts in
 * one transaction when every row is valid. A file committed before answers its stored report.
 */
export async function importPosts(
  ctx: AppContext,
  userId: string,
  input: { format: ImportFormat; body: string; rows: ImportRowInput[]; dryRun: boolean },
): Promise<ImportReport> {
  const digest = importDigest(input.format, input.body);
  if (!input.dryRun) {
    const earlier = await findImport(ctx, userId, digest);
    if (earlier) return { rows: earlier, committed: true };
  }
  const resolved = await resolveRows(ctx, userId, input.rows);
  const rows = resolved.map((r) => r.report);
  if (input.dryRun || rows.some((r) => !r.valid)) return { rows, committed: false };

  const now = Date.now();
  const newPosts: NewPost[] = resolved.map((r, i) => {
    const id = crypto.randomUUID();
    r.report.postId = id;
    // One millisecond apart, so the posts list (newest first) keeps the file's order reversed.
    const createdAt = new Date(now + i);
    return { id, userId, ...r.post!, createdAt, updatedAt: createdAt };
  });
  if (!(await commitImport(ctx, { userId, digest, rows }, newPosts))) {
    // The same file was committed by a concurrent request: answer what it created.
    return { rows: (await findImport(ctx, userId, digest)) ?? rows, committed: true };
  }
  const due = newPosts.flatMap((p) => (p.nextAttemptAt ? [p.nextAttemptAt] : []));
  if (due.length) await announceDue(ctx, new Date(Math.min(...due.map((d) => d.getTime()))));
  return { rows, committed: true };
}

async function resolveRows(
  ctx: AppContext,
  userId: string,
  inputs: ImportRowInput[],
): Promise<ResolvedRow[]> {
  const match = accountMatcher(await accountsOf(ctx, userId));
  const media = await resolveImportMedia(ctx, userId, inputs);
  const posting = postingServiceFor(ctx, userId);
  const cache: AccountCache = new Map();
  const seen = new Map<string, number>();
  const out: ResolvedRow[] = [];
  for (const row of inputs) {
    const errors: ProblemIssue[] = [...row.errors];
    const targets = new Map<string, { id: string; platform: string; ref: string }>();
    for (const ref of row.accountRefs) {
      const found = match(ref);
      if ('error' in found) {
        errors.push({
          path: 'accounts',
          code: found.error,
          message:
            found.error === 'account_ambiguous'
              ? `"${ref}" names several accounts; use the account id or <platform>:<handle>`
              : `No account "${ref}"`,
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
    if (mode !== 'draft' && mode !== 'schedule') {
      errors.push({
        path: 'postingMode',
        code: 'invalid_posting_mode',
        message: 'An import creates drafts or scheduled posts: postingMode is draft or schedule',
      });
    }
    if (mode === 'schedule') {
      if (row.scheduledAt === undefined)
        errors.push({ path: 'scheduledAt', code: 'required', message: 'A scheduled row needs scheduledAt' });
      else if (scheduledAt && scheduledAt.getTime() <= Date.now())
        errors.push({
          path: 'scheduledAt',
          code: 'scheduled_in_past',
          message: 'scheduledAt is in the past',
        });
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

    const stored: StoredMedia[] = [];
    row.media.forEach((item, m) => {
      const outcome = mediaOutcomeFor(media, item);
      if ('media' in outcome) stored.push(outcome.media);
      else errors.push({ ...outcome.error, path: `media[${m}]` });
    });

    const fingerprint = JSON.stringify([
      row.message,
      [...accountIds].sort(),
      scheduledAt?.toISOString() ?? null,
      stored.map((s) => s.key),
    ]);
    const first = seen.get(fingerprint);
    if (first !== undefined)
      errors.push({
        code: 'duplicate_row',
        message: `Row ${first} has the same message, accounts, time and media`,
      });
    else seen.set(fingerprint, row.index);

    // Scheduled rows get exactly the checks POST /api/v1/posts makes before scheduling.
    if (errors.length === 0 && mode === 'schedule') {
      const prepared = await posting.prepare(
        { message: row.message, accountIds, media: stored, accountOptions },
        accountLookup(ctx, userId, cache),
      );
      if (!prepared.targets) errors.push(...validationIssues(prepared.validation));
    }

    const valid = errors.length === 0;
    out.push({
      report: { index: row.index, valid, errors },
      post: valid
        ? {
            status: mode === 'schedule' ? 'scheduled' : 'draft',
            message: row.message,
            accountIds,
            media: stored,
            accountOptions,
            scheduledAt: scheduledAt ?? null,
            nextAttemptAt: mode === 'schedule' ? scheduledAt! : null,
          }
        : undefined,
    });
  }
  return out;
}
