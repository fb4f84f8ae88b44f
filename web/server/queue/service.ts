import type { ProblemIssue } from '@postwave/shared';
import { getAccountRow } from '#server/accounts/list-accounts.ts';
import type { AppContext } from '#server/context.ts';
import type { Db } from '#server/db/access.ts';
import { announceDue } from '#server/dispatch/wakeups.ts';
import { isUuid } from '#server/http/ids.ts';
import { invalidStatus, validationFailed } from '#server/http/problems.ts';
import { notFound } from '#server/http/respond.ts';
import { findWorkspace } from '#server/workspaces/repository.ts';
import { settingsOf as workspaceSettings } from '#server/workspaces/view.ts';
import { canonicalTimeZone } from '../../components/lib/time.ts';
import {
  moveScheduledPosts,
  QueueConflict,
  type QueueRow,
  queuesOf,
  saveQueue,
  scheduledHolders,
  upcomingPosts,
  withQueueLock,
} from './repository.ts';
import type { QueueMove, QueueSettingsView, QueueViewShape } from './schema.ts';
import { firstCommonFreeSlot, slotInstants, slotTimePattern, type WeeklySlot } from './slots.ts';

/*
 * The queue: each account's weekly posting slots in an IANA zone. A slot is free when no scheduled
 * post of that account is scheduled at exactly that instant. A post for several accounts takes the
 * earliest instant that is a free slot in every target account's queue (one post, one time: it
 * stays one post with one result per account). Accounts whose slots never coincide get a 422
 * naming them; queue such posts one account at a time.
 */

const freeSlotsShown = 10;

async function ownedAccount(ctx: AppContext, workspaceId: string, accountId: string) {
  const row = await getAccountRow(ctx, workspaceId, accountId);
  if (!row) throw notFound('account');
  return row;
}

/** A new queue's zone: the workspace's (docs/workspaces.md#settings). */
async function userZone(ctx: AppContext, workspaceId: string): Promise<string> {
  const workspace = await findWorkspace(ctx, workspaceId);
  return workspace ? workspaceSettings(workspace).timezone : 'UTC';
}

const slotKey = (s: WeeklySlot) => `${s.weekday} ${s.time}`;

/** Sorted by weekday and time, each slot once. */
function normalizeSlots(slots: readonly WeeklySlot[]): WeeklySlot[] {
  const unique = new Map(slots.map((s) => [slotKey(s), { weekday: s.weekday, time: s.time }]));
  return [...unique.values()].sort((a, b) => a.weekday - b.weekday || a.time.localeCompare(b.time));
}

/** 422 with a path per bad field: an unknown zone, a weekday outside 1–7, a time not `HH:MM`. */
export function checkQueueSettings(input: QueueSettingsView): QueueSettingsView {
  const issues: ProblemIssue[] = [];
  const timezone = canonicalTimeZone(input.timezone);
  if (!timezone) {
    issues.push({
      path: 'timezone',
      code: 'invalid_timezone',
      message: `"${input.timezone}" is not an IANA time zone (e.g. Europe/Berlin)`,
    });
  }
  input.slots.forEach((slot, i) => {
    if (!Number.isInteger(slot.weekday) || slot.weekday < 1 || slot.weekday > 7) {
      issues.push({
        path: `slots[${i}].weekday`,
        code: 'invalid_weekday',
        message: 'Use 1 (Monday) to 7 (Sunday)',
      });
    }
    if (!slotTimePattern.test(slot.time)) {
      issues.push({
        path: `slots[${i}].time`,
        code: 'invalid_time',
        message: 'Use HH:MM on the 24-hour clock, e.g. 09:30',
      });
    }
  });
  if (issues.length) throw validationFailed('The queue settings are not valid', issues);
  return { timezone: timezone!, slots: normalizeSlots(input.slots) };
}

async function viewOf(
  ctx: Db,
  workspaceId: string,
  accountId: string,
  settings: QueueSettingsView,
): Promise<QueueViewShape> {
  const now = new Date();
  const upcoming = await upcomingPosts(ctx, workspaceId, accountId, now);
  const taken = new Set(upcoming.map((p) => p.scheduledAt.getTime()));
  const instants = [...slotInstants(settings.timezone, settings.slots, { after: now })];
  const slotSet = new Set(instants.map((d) => d.getTime()));
  return {
    ...settings,
    posts: upcoming.map((p) => ({
      id: p.id,
      message: p.message,
      accountIds: p.accountIds,
      scheduledAt: p.scheduledAt.toISOString(),
      onSlot: slotSet.has(p.scheduledAt.getTime()),
    })),
    freeSlots: instants
      .filter((d) => !taken.has(d.getTime()))
      .slice(0, freeSlotsShown)
      .map((d) => d.toISOString()),
  };
}

const settingsOf = (row: QueueRow | undefined, fallbackZone: string): QueueSettingsView =>
  row ? { timezone: row.timezone, slots: row.slots } : { timezone: fallbackZone, slots: [] };

/** `GET /api/v1/accounts/{id}/queue`. */
export async function getQueue(
  ctx: AppContext,
  workspaceId: string,
  accountId: string,
): Promise<QueueViewShape> {
  await ownedAccount(ctx, workspaceId, accountId);
  const [row] = await queuesOf(ctx, workspaceId, [accountId]);
  return viewOf(ctx, workspaceId, accountId, settingsOf(row, await userZone(ctx, workspaceId)));
}

/** `PUT /api/v1/accounts/{id}/queue`: replaces the slots; posts already scheduled keep their times. */
export async function setQueue(
  ctx: AppContext,
  workspaceId: string,
  accountId: string,
  input: QueueSettingsView,
): Promise<QueueViewShape> {
  await ownedAccount(ctx, workspaceId, accountId);
  const settings = checkQueueSettings(input);
  await saveQueue(ctx, { accountId, workspaceId, ...settings, updatedAt: new Date() });
  return viewOf(ctx, workspaceId, accountId, settings);
}

/**
 * The next free slot common to every one of `accountIds` after `notBefore` (default now),
 * ignoring the slot `postId` itself holds. Call inside `withQueueLock` and store the post in the
 * same transaction, so no other request takes the slot in between.
 */
export async function nextQueueSlot(
  tx: Db,
  workspaceId: string,
  accountIds: string[],
  options: { notBefore?: Date | undefined; postId?: string | undefined } = {},
): Promise<Date> {
  const now = new Date();
  const after = options.notBefore && options.notBefore > now ? options.notBefore : now;
  const rows = new Map((await queuesOf(tx, workspaceId, accountIds)).map((r) => [r.accountId, r]));
  const empty = accountIds.flatMap((id, i) =>
    rows.get(id)?.slots.length
      ? []
      : [
          {
            accountId: id,
            path: `accountIds[${i}]`,
            code: 'queue_empty',
            message: 'This account has no queue slots yet',
          },
        ],
  );
  if (empty.length) throw validationFailed('Some accounts have no queue slots; set them first', empty);
  const holders = (await scheduledHolders(tx, workspaceId, accountIds, after)).filter(
    (p) => p.id !== options.postId,
  );
  const queues = accountIds.map((id) => {
    const row = rows.get(id)!;
    const taken = new Set(
      holders.filter((p) => p.accountIds.includes(id)).map((p) => p.scheduledAt.getTime()),
    );
    return { zone: row.timezone, slots: row.slots, taken };
  });
  const when = firstCommonFreeSlot(queues, { after });
  if (!when) {
    throw validationFailed(
      accountIds.length > 1
        ? 'These accounts share no free queue slot within a year; queue the post for each account separately'
        : 'The account has no free queue slot within a year',
      [{ path: 'accountIds', code: 'no_free_slot', message: 'No free queue slot common to every account' }],
    );
  }
  return when;
}

/** Runs `store(tx, when)` with the next free common slot, under the user's queue lock. */
export async function scheduleInQueue<T>(
  ctx: AppContext,
  workspaceId: string,
  accountIds: string[],
  options: { notBefore?: Date | undefined; postId?: string | undefined },
  store: (tx: Db, when: Date) => Promise<T>,
): Promise<T> {
  const { result, when } = await withQueueLock(ctx, workspaceId, async (tx) => {
    const slot = await nextQueueSlot(tx, workspaceId, accountIds, options);
    return { result: await store(tx, slot), when: slot };
  });
  await announceDue(ctx, when);
  return result;
}

/**
 * Reorders the account's upcoming posts by moving their times, never the set of times:
 * `up`/`down` swap with the neighbour; `next` gives the post the earliest time (a free slot
 * before the first post if there is one, else the first post's time, every post before it moving
 * one place later). A post for several accounts moves in all of them.
 */
export async function moveInQueue(
  ctx: AppContext,
  workspaceId: string,
  accountId: string,
  postId: string,
  move: QueueMove,
): Promise<QueueViewShape> {
  await ownedAccount(ctx, workspaceId, accountId);
  const [row] = await queuesOf(ctx, workspaceId, [accountId]);
  const settings = settingsOf(row, await userZone(ctx, workspaceId));
  const moved = await withQueueLock(ctx, workspaceId, async (tx) => {
    const list = await upcomingPosts(tx, workspaceId, accountId, new Date());
    const index = isUuid(postId) ? list.findIndex((p) => p.id === postId) : -1;
    if (index < 0) throw notFound('scheduled post in this account’s queue');
    const moves = planMove(list, index, move, await firstFreeSlot(tx, workspaceId, accountId, settings));
    if (moves.length && !(await moveScheduledPosts(tx, workspaceId, moves))) throw new QueueConflict();
    return moves;
  }).catch((error: unknown) => {
    if (error instanceof QueueConflict) throw invalidStatus('A post is being published right now; try again');
    throw error;
  });
  const earliest = moved.map((m) => m.at).sort((a, b) => a.getTime() - b.getTime())[0];
  if (earliest) await announceDue(ctx, earliest);
  return viewOf(ctx, workspaceId, accountId, settings);
}

async function firstFreeSlot(tx: Db, workspaceId: string, accountId: string, settings: QueueSettingsView) {
  if (!settings.slots.length) return undefined;
  const now = new Date();
  const holders = await scheduledHolders(tx, workspaceId, [accountId], now);
  const taken = new Set(holders.map((p) => p.scheduledAt.getTime()));
  return firstCommonFreeSlot([{ zone: settings.timezone, slots: settings.slots, taken }], { after: now });
}

/** The new time of each post that moves. */
export function planMove(
  list: readonly { id: string; scheduledAt: Date }[],
  index: number,
  move: QueueMove,
  freeSlot: Date | undefined,
): { postId: string; at: Date }[] {
  const post = list[index]!;
  if (move === 'up' || move === 'down') {
    const other = list[move === 'up' ? index - 1 : index + 1];
    if (!other) return [];
    return [
      { postId: post.id, at: other.scheduledAt },
      { postId: other.id, at: post.scheduledAt },
    ];
  }
  const first = list[0]!;
  if (freeSlot && freeSlot < first.scheduledAt) return [{ postId: post.id, at: freeSlot }];
  if (index === 0) return [];
  // Rotate: the post takes the first time, each post before it the time of the one after it.
  return [
    { postId: post.id, at: first.scheduledAt },
    ...list.slice(0, index).map((p, i) => ({ postId: p.id, at: list[i + 1]!.scheduledAt })),
  ];
}
