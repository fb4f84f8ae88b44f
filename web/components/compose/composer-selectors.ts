/** What the composer shows, derived from its state: the request body, the counters, readiness. */
import { visibleOptions } from '@postwave/shared/platforms/option-fields';
import { type AccountSummary, countFor, manifestFor, type TextCount } from '#components/lib/platforms.ts';
import type { AccountOptions, ComposerState, MediaItem, MediaRef, ThreadPart } from './composer-state.ts';

/** Uploaded items as the API takes them, each with its alt text when it has one. */
export function mediaRefs(items: MediaItem[]): MediaRef[] {
  return items.flatMap((m) => {
    if (!m.media) return [];
    const altText = m.altText?.trim();
    return [altText ? { ...m.media, altText } : m.media];
  });
}

export const uploadedMedia = (state: ComposerState): MediaRef[] => mediaRefs(state.media);

/** What one account publishes: its own message and media where it has them, else the base post's. */
export function versionOf(state: ComposerState, accountId: string) {
  const own = state.overrides[accountId];
  return {
    message: own?.message ?? state.message,
    media: own?.media ?? state.media,
    edited: Boolean(own),
  };
}

const selectedAccounts = (state: ComposerState, accounts: AccountSummary[]) =>
  accounts.filter((a) => state.selected.includes(a.id));

const features = (account: AccountSummary) => manifestFor(account.platform)?.features;

/** Selected accounts whose platform publishes thread parts as a reply chain, and those that do not. */
export function threadAudience(state: ComposerState, accounts: AccountSummary[]) {
  const selected = selectedAccounts(state, accounts);
  return {
    receiving: selected.filter((a) => features(a)?.thread),
    left: selected.filter((a) => !features(a)?.thread),
  };
}

/** The shortest alt text limit among the selected platforms that show alt text (null: none does). */
export function altTextLimit(state: ComposerState, accounts: AccountSummary[]) {
  const selected = selectedAccounts(state, accounts);
  const limits = selected.flatMap((a) => {
    const alt = features(a)?.altText;
    return alt ? [alt.maxLength] : [];
  });
  return {
    limit: limits.length ? Math.min(...limits) : null,
    /** Selected accounts whose platform has no alt text: they publish the media without it. */
    without: selected.filter((a) => features(a) && !features(a)!.altText),
  };
}

/** The post as the API takes it: options, versions and thread only where they apply. */
export function requestBody(state: ComposerState, accounts: AccountSummary[]) {
  const accountOptions: AccountOptions = {};
  const overrides: Record<string, { message?: string; media?: MediaRef[] }> = {};
  for (const id of state.selected) {
    // Values of fields hidden by `showWhen` stay in the composer (shown again, they come back) but are not sent.
    const platform = accounts.find((a) => a.id === id)?.platform;
    const fields = (platform && manifestFor(platform)?.options) || [];
    const o = state.options[id] && visibleOptions(fields, state.options[id]);
    if (o && Object.keys(o).length) accountOptions[id] = o;
    const version = state.overrides[id];
    if (version) {
      overrides[id] = {
        ...(version.message !== undefined ? { message: version.message } : {}),
        ...(version.media ? { media: mediaRefs(version.media) } : {}),
      };
    }
  }
  const threaded = state.thread.length > 0 && threadAudience(state, accounts).receiving.length > 0;
  return {
    message: state.message,
    accountIds: state.selected,
    media: uploadedMedia(state),
    accountOptions,
    ...(Object.keys(overrides).length ? { overrides } : {}),
    ...(threaded
      ? {
          thread: state.thread.map((p) => {
            const media = mediaRefs(p.media);
            return media.length ? { message: p.message, media } : { message: p.message };
          }),
        }
      : {}),
  };
}
export type PostBody = ReturnType<typeof requestBody>;

export interface TargetCount {
  account: AccountSummary;
  count: TextCount | undefined;
  /** The account has its own version (the count is of that version). */
  edited: boolean;
}

/** Each selected account's count of the text it publishes, as its platform counts it. */
export function targetCounts(state: ComposerState, accounts: AccountSummary[]): TargetCount[] {
  return selectedAccounts(state, accounts).map((account) => {
    const version = versionOf(state, account.id);
    return {
      account,
      edited: version.edited,
      count: countFor(account.platform, {
        message: version.message,
        hasMedia: mediaRefs(version.media).length > 0,
        options: state.options[account.id] ?? {},
      }),
    };
  });
}

/** A thread part's count for each account that receives the thread. */
export function partCounts(
  state: ComposerState,
  accounts: AccountSummary[],
  part: ThreadPart,
): TargetCount[] {
  return threadAudience(state, accounts).receiving.map((account) => ({
    account,
    edited: false,
    count: countFor(account.platform, {
      message: part.message,
      hasMedia: mediaRefs(part.media).length > 0,
      options: state.options[account.id] ?? {},
    }),
  }));
}

const over = (c: TargetCount) => Boolean(c.count && c.count.used > c.count.limit);

/** The alt text limit of one account's platform; null when it shows none. */
export function accountAltLimit(account: AccountSummary | undefined): number | null {
  return (account && features(account)?.altText?.maxLength) ?? null;
}

/**
 * Every media item of the post with the alt text limit that applies to it: the base media and
 * thread parts go to every selected account (the smallest limit), an account's own media only there.
 */
function allMedia(state: ComposerState, accounts: AccountSummary[], threaded: boolean) {
  const shared = altTextLimit(state, accounts).limit;
  return [
    ...[...state.media, ...(threaded ? state.thread.flatMap((p) => p.media) : [])].map((item) => ({
      item,
      limit: shared,
    })),
    ...state.selected.flatMap((id) => {
      const limit = accountAltLimit(accounts.find((a) => a.id === id));
      return (state.overrides[id]?.media ?? []).map((item) => ({ item, limit }));
    }),
  ];
}

/** Whether publishing may start, and if not, the sentence that says why. */
export function readiness(state: ComposerState, counts: TargetCount[], accounts: AccountSummary[] = []) {
  const threaded = state.thread.length > 0 && threadAudience(state, accounts).receiving.length > 0;
  const media = allMedia(state, accounts, threaded);
  const uploading = media.some(({ item }) => !item.media && !item.error);
  const tooLong = media.find(({ item, limit }) => limit !== null && (item.altText?.length ?? 0) > limit);
  const partsOver = threaded && state.thread.some((p) => partCounts(state, accounts, p).some(over));
  const emptyPart =
    threaded && state.thread.findIndex((p) => p.message.trim() === '' && mediaRefs(p.media).length === 0);
  const invalid =
    state.selected.some((id) => state.results[id] && !state.results[id]!.valid) ||
    counts.some(over) ||
    partsOver;
  const empty = state.message.trim() === '' && uploadedMedia(state).length === 0;
  const blockReason =
    state.selected.length === 0
      ? 'Choose at least one account.'
      : empty
        ? 'Write a message or add media.'
        : uploading
          ? 'Waiting for uploads to finish…'
          : typeof emptyPart === 'number' && emptyPart >= 0
            ? `Thread part ${emptyPart + 2} is empty: write it or remove it.`
            : tooLong
              ? `Shorten the alt text to ${tooLong.limit} characters or fewer.`
              : invalid
                ? 'Fix the problems shown beside the accounts.'
                : undefined;
  return { uploading, canPublish: !blockReason && !state.busy, blockReason };
}
