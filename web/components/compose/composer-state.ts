/**
 * The composer's one state model: every change goes through `composerReducer` as a typed action,
 * and what the view shows is derived from it in `composer-selectors.ts`.
 */
import type { ProblemIssue } from '#components/lib/api.ts';
import type { AccountSummary } from '#components/lib/platforms.ts';
import { utcToZonedInput } from '#components/lib/time.ts';
import type { MediaObject } from './upload.ts';

export type AccountOptions = Record<string, Record<string, unknown>>;
/** `queue`: the next free slot of every selected account's queue (see /queue). */
export type SubmitMode = 'now' | 'schedule' | 'draft' | 'queue';

export interface EditablePost {
  id: string;
  status: 'draft' | 'scheduled' | 'posted' | 'failed';
  message: string;
  accountIds: string[];
  media: MediaObject[];
  accountOptions: AccountOptions;
  scheduledAt: string | null;
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
}

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
  results: Record<string, ValidationResult>;
  generalIssues: string[];
  validating: boolean;
  busy?: SubmitMode;
  error?: string;
  dragging: boolean;
}

export type ComposerAction =
  | { type: 'message'; message: string }
  | { type: 'toggleAccount'; accountId: string }
  | { type: 'mediaAdded'; item: MediaItem }
  | { type: 'mediaUpdated'; localId: string; patch: Partial<MediaItem> }
  | { type: 'mediaRemoved'; localId: string }
  | { type: 'dragging'; active: boolean }
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

let counter = 0;
export const nextLocalId = () => `m${++counter}`;

export const optionKey = (accountId: string, name: string) => `${accountId}/${name}`;

export function initialState(
  accounts: AccountSummary[],
  timezone: string,
  post?: EditablePost,
): ComposerState {
  return {
    message: post?.message ?? '',
    selected: post
      ? post.accountIds.filter((id) => accounts.some((a) => a.id === id))
      : accounts.length === 1
        ? [accounts[0]!.id]
        : [],
    media: (post?.media ?? []).map((m) => ({
      localId: nextLocalId(),
      filename: m.filename,
      contentType: m.contentType,
      preview: m.url,
      progress: 1,
      media: m,
    })),
    options: post?.accountOptions ?? {},
    optionUploads: {},
    scheduleAt: post?.scheduledAt ? utcToZonedInput(new Date(post.scheduledAt), timezone) : '',
    showSchedule: Boolean(post?.scheduledAt),
    results: {},
    generalIssues: [],
    validating: false,
    dragging: false,
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

function withOption(
  options: AccountOptions,
  accountId: string,
  name: string,
  value: unknown,
): AccountOptions {
  const current = { ...(options[accountId] ?? {}) };
  if (value === undefined || value === '') delete current[name];
  else current[name] = value;
  return { ...options, [accountId]: current };
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
      return { ...state, selected };
    }
    case 'mediaAdded':
      return { ...state, media: [...state.media, action.item] };
    case 'mediaUpdated':
      return {
        ...state,
        media: state.media.map((m) => (m.localId === action.localId ? { ...m, ...action.patch } : m)),
      };
    case 'mediaRemoved':
      return { ...state, media: state.media.filter((m) => m.localId !== action.localId) };
    case 'dragging':
      return { ...state, dragging: action.active };
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
