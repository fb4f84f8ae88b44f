/**
 * The composer's one state model: every change goes through `composerReducer` as a typed action,
 * and what the view shows is derived from it in `composer-selectors.ts`.
 */
import { setOptionValue } from '@postwave/shared/platforms/option-fields';
import type { ProblemIssue } from '#components/lib/api.ts';
import type { AccountSummary } from '#components/lib/platforms.ts';
import { utcToZonedInput } from '#components/lib/time.ts';
import { nextLocalId } from './local-id.ts';
import { patchItems, storedItems, withSlotMedia } from './media-slots.ts';
import type { MediaObject } from './upload.ts';

export type AccountOptions = Record<string, Record<string, unknown>>;
/** `queue`: the next free slot of every selected account's queue (see /queue). */
export type SubmitMode = 'now' | 'schedule' | 'draft' | 'queue';

/** A media reference as the API takes it: the stored object and, optionally, its description. */
export type MediaRef = MediaObject & { altText?: string };

export interface EditablePost {
  id: string;
  status: 'draft' | 'scheduled' | 'posted' | 'failed' | 'pending_approval';
  message: string;
  accountIds: string[];
  media: MediaRef[];
  accountOptions: AccountOptions;
  scheduledAt: string | null;
  /** The composer fields (docs/composer-fields.md); absent from servers that predate them. */
  overrides?: Record<string, { message?: string; media?: MediaRef[] }>;
  thread?: { message: string; media?: MediaRef[] }[];
  /** Evergreen recycling (docs/recycling.md); a copy has `recycledFrom` and is not recycled itself. */
  recycle?: { intervalDays: number; maxTimes: number; jitterMinutes: number; until?: string } | null;
  recycledFrom?: string | null;
}

export interface MediaItem {
  localId: string;
  filename: string;
  contentType: string;
  preview?: string;
  progress: number;
  media?: MediaObject;
  error?: string;
  abort?: AbortController;
  /** What a screen reader says for the image on the platform (`altText` on the media reference). */
  altText?: string;
}

/** One account's own version of the post; an absent field follows the base post. */
export interface AccountVersion {
  message?: string;
  media?: MediaItem[];
}

/** A part of the thread after the first message. */
export interface ThreadPart {
  localId: string;
  message: string;
  media: MediaItem[];
}

/** Where a media list lives: the base post, one account's version, or a thread part. */
export type MediaSlot = 'base' | `account:${string}` | `part:${string}`;

/** The limit on thread parts after the first message (docs/composer-fields.md). */
export const maxThreadParts = 25;

export interface ValidationResult {
  accountId: string;
  valid: boolean;
  errors: ProblemIssue[];
  warnings: ProblemIssue[];
}

/** An upload for a `media` option field (a thumbnail), keyed by `optionKey`. */
export interface OptionUpload {
  progress: number;
  error?: string;
}

export interface ComposerState {
  message: string;
  selected: string[];
  media: MediaItem[];
  options: AccountOptions;
  optionUploads: Record<string, OptionUpload>;
  scheduleAt: string;
  showSchedule: boolean;
  /** Per-account versions, keyed by account id (kept when an account is deselected, sent only when selected). */
  overrides: Record<string, AccountVersion>;
  thread: ThreadPart[];
  /** The version tab shown: `base` or an account id. */
  activeTab: string;
  results: Record<string, ValidationResult>;
  generalIssues: string[];
  validating: boolean;
  busy?: SubmitMode;
  error?: string;
}

export type ComposerAction =
  | { type: 'message'; message: string }
  | { type: 'toggleAccount'; accountId: string }
  | { type: 'mediaAdded'; slot: MediaSlot; item: MediaItem }
  | { type: 'mediaUpdated'; localId: string; patch: Partial<MediaItem> }
  | { type: 'mediaRemoved'; slot: MediaSlot; localId: string }
  | { type: 'altText'; slot: MediaSlot; localId: string; altText: string }
  | { type: 'tab'; tab: string }
  | { type: 'versionMessage'; accountId: string; message: string }
  | { type: 'versionReset'; accountId: string }
  | { type: 'partAdded' }
  | { type: 'partMessage'; partId: string; message: string }
  | { type: 'partRemoved'; partId: string }
  | { type: 'option'; accountId: string; name: string; value: unknown }
  | { type: 'optionUpload'; key: string; upload: OptionUpload | undefined }
  | { type: 'scheduleOpened'; defaultAt: string }
  | { type: 'scheduleAt'; value: string }
  | { type: 'validationStarted' }
  | { type: 'validated'; results: ValidationResult[] }
  | { type: 'validationFailed'; issue: string }
  | { type: 'validationCleared' }
  | { type: 'validationSettled' }
  | { type: 'submitStarted'; mode: SubmitMode }
  | { type: 'submitRefused'; error: string; issues?: ProblemIssue[] };

export const optionKey = (accountId: string, name: string) => `${accountId}/${name}`;

export function initialState(
  accounts: AccountSummary[],
  timezone: string,
  post?: EditablePost,
  /** Media to start a new post with ("use in a new post" from the media library). */
  initialMedia?: MediaRef[],
): ComposerState {
  return {
    message: post?.message ?? '',
    selected: post
      ? post.accountIds.filter((id) => accounts.some((a) => a.id === id))
      : accounts.length === 1
        ? [accounts[0]!.id]
        : [],
    media: storedItems(post?.media ?? initialMedia),
    overrides: Object.fromEntries(
      Object.entries(post?.overrides ?? {}).map(([id, v]) => [
        id,
        {
          ...(v.message !== undefined ? { message: v.message } : {}),
          ...(v.media ? { media: storedItems(v.media) } : {}),
        },
      ]),
    ),
    thread: (post?.thread ?? []).map((p) => ({
      localId: nextLocalId(),
      message: p.message,
      media: storedItems(p.media),
    })),
    activeTab: 'base',
    options: post?.accountOptions ?? {},
    optionUploads: {},
    scheduleAt: post?.scheduledAt ? utcToZonedInput(new Date(post.scheduledAt), timezone) : '',
    showSchedule: Boolean(post?.scheduledAt),
    results: {},
    generalIssues: [],
    validating: false,
  };
}

/** Problem issues from a refused request, merged into the per-account results they name. */
function withIssues(state: ComposerState, issues: ProblemIssue[]): Partial<ComposerState> {
  const results = { ...state.results };
  const generalIssues: string[] = [];
  for (const issue of issues) {
    if (!issue.accountId) {
      generalIssues.push(issue.message);
      continue;
    }
    const r = results[issue.accountId] ?? {
      accountId: issue.accountId,
      valid: false,
      errors: [],
      warnings: [],
    };
    results[issue.accountId] = { ...r, valid: false, errors: [...r.errors, issue] };
  }
  return { results, generalIssues };
}

/** Sets one option of one account; a dotted name (`event.title`) sets a field of a nested option. */
function withOption(
  options: AccountOptions,
  accountId: string,
  name: string,
  value: unknown,
): AccountOptions {
  return { ...options, [accountId]: setOptionValue(options[accountId] ?? {}, name, value) };
}

export function composerReducer(state: ComposerState, action: ComposerAction): ComposerState {
  switch (action.type) {
    case 'message':
      return { ...state, message: action.message };
    case 'toggleAccount': {
      const on = state.selected.includes(action.accountId);
      const selected = on
        ? state.selected.filter((id) => id !== action.accountId)
        : [...state.selected, action.accountId];
      const activeTab = on && state.activeTab === action.accountId ? 'base' : state.activeTab;
      return { ...state, selected, activeTab };
    }
    case 'mediaAdded':
      return withSlotMedia(state, action.slot, (media) => [...media, action.item]);
    case 'mediaUpdated': {
      // Progress reaches every copy of the item (the base list, account versions, thread parts).
      const { localId, patch } = action;
      return {
        ...state,
        media: patchItems(state.media, localId, patch),
        overrides: Object.fromEntries(
          Object.entries(state.overrides).map(([id, v]) => [
            id,
            v.media ? { ...v, media: patchItems(v.media, localId, patch) } : v,
          ]),
        ),
        thread: state.thread.map((p) => ({ ...p, media: patchItems(p.media, localId, patch) })),
      };
    }
    case 'mediaRemoved':
      return withSlotMedia(state, action.slot, (media) => media.filter((m) => m.localId !== action.localId));
    case 'altText':
      return withSlotMedia(state, action.slot, (media) =>
        patchItems(media, action.localId, { altText: action.altText }),
      );
    case 'tab':
      return { ...state, activeTab: action.tab };
    case 'versionMessage': {
      const version = state.overrides[action.accountId] ?? {};
      return {
        ...state,
        overrides: { ...state.overrides, [action.accountId]: { ...version, message: action.message } },
      };
    }
    case 'versionReset': {
      const { [action.accountId]: _, ...overrides } = state.overrides;
      return { ...state, overrides };
    }
    case 'partAdded':
      if (state.thread.length >= maxThreadParts) return state;
      return { ...state, thread: [...state.thread, { localId: nextLocalId(), message: '', media: [] }] };
    case 'partMessage':
      return {
        ...state,
        thread: state.thread.map((p) =>
          p.localId === action.partId ? { ...p, message: action.message } : p,
        ),
      };
    case 'partRemoved':
      return { ...state, thread: state.thread.filter((p) => p.localId !== action.partId) };
    case 'option':
      return { ...state, options: withOption(state.options, action.accountId, action.name, action.value) };
    case 'optionUpload': {
      const optionUploads = { ...state.optionUploads };
      if (action.upload) optionUploads[action.key] = action.upload;
      else delete optionUploads[action.key];
      return { ...state, optionUploads };
    }
    case 'scheduleOpened':
      return { ...state, showSchedule: true, scheduleAt: state.scheduleAt || action.defaultAt };
    case 'scheduleAt':
      return { ...state, scheduleAt: action.value };
    case 'validationStarted':
      return { ...state, validating: true };
    case 'validated':
      return {
        ...state,
        results: Object.fromEntries(action.results.map((r) => [r.accountId, r])),
        generalIssues: [],
      };
    case 'validationFailed':
      return { ...state, generalIssues: [action.issue] };
    case 'validationCleared':
      return { ...state, results: {}, generalIssues: [] };
    case 'validationSettled':
      return { ...state, validating: false };
    case 'submitStarted':
      return { ...state, busy: action.mode, error: undefined };
    case 'submitRefused':
      return {
        ...state,
        ...(action.issues?.length ? withIssues(state, action.issues) : {}),
        busy: undefined,
        error: action.error,
      };
  }
}
