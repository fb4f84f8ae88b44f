/** What the composer shows, derived from its state: the request body, the counters, readiness. */
import { type AccountSummary, countFor, type TextCount } from '#components/lib/platforms.ts';
import type { AccountOptions, ComposerState } from './composer-state.ts';
import type { MediaObject } from './upload.ts';

export const uploadedMedia = (state: ComposerState): MediaObject[] =>
  state.media.filter((m) => m.media).map((m) => m.media!);

/** The post as the API takes it: options only for selected accounts that have any. */
export function requestBody(state: ComposerState) {
  const accountOptions: AccountOptions = {};
  for (const id of state.selected) {
    const o = state.options[id];
    if (o && Object.keys(o).length) accountOptions[id] = o;
  }
  return { message: state.message, accountIds: state.selected, media: uploadedMedia(state), accountOptions };
}

export interface TargetCount {
  account: AccountSummary;
  count: TextCount | undefined;
}

export function targetCounts(state: ComposerState, accounts: AccountSummary[]): TargetCount[] {
  const hasMedia = uploadedMedia(state).length > 0;
  return accounts
    .filter((a) => state.selected.includes(a.id))
    .map((account) => ({
      account,
      count: countFor(account.platform, {
        message: state.message,
        hasMedia,
        options: state.options[account.id] ?? {},
      }),
    }));
}

/** Whether publishing may start, and if not, the sentence that says why. */
export function readiness(state: ComposerState, counts: TargetCount[]) {
  const uploading = state.media.some((m) => !m.media && !m.error);
  const overLimit = counts.some((c) => c.count && c.count.used > c.count.limit);
  const invalid = state.selected.some((id) => state.results[id] && !state.results[id]!.valid) || overLimit;
  const empty = state.message.trim() === '' && uploadedMedia(state).length === 0;
  const blockReason =
    state.selected.length === 0
      ? 'Choose at least one account.'
      : empty
        ? 'Write a message or add media.'
        : uploading
          ? 'Waiting for uploads to finish…'
          : invalid
            ? 'Fix the problems shown beside the accounts.'
            : undefined;
  return { uploading, canPublish: !blockReason && !state.busy, blockReason };
}
