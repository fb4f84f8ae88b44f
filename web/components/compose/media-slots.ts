/** Where the composer's media lists live (base post, account versions, thread parts) and how they change. */
import type { ComposerState, MediaItem, MediaRef, MediaSlot } from './composer-state.ts';
import { nextLocalId } from './local-id.ts';

/** Media already stored (a post being edited) as composer items. */
export function storedItems(media: MediaRef[] | undefined): MediaItem[] {
  return (media ?? []).map(({ altText, ...m }) => ({
    localId: nextLocalId(),
    filename: m.filename,
    contentType: m.contentType,
    preview: m.url,
    progress: 1,
    media: m,
    ...(altText ? { altText } : {}),
  }));
}

/** The media list a slot shows: an account without its own media list shows the base one. */
export function slotMedia(state: ComposerState, slot: MediaSlot): MediaItem[] {
  if (slot === 'base') return state.media;
  if (slot.startsWith('account:')) return state.overrides[slot.slice(8)]?.media ?? state.media;
  return state.thread.find((p) => p.localId === slot.slice(5))?.media ?? [];
}

/**
 * Replaces a slot's media list. Changing an account's media gives it its own list, starting from
 * the base media; copies keep their local ids, so an upload still running updates both.
 */
export function withSlotMedia(
  state: ComposerState,
  slot: MediaSlot,
  change: (media: MediaItem[]) => MediaItem[],
): ComposerState {
  if (slot === 'base') return { ...state, media: change(state.media) };
  if (slot.startsWith('account:')) {
    const id = slot.slice(8);
    const version = state.overrides[id] ?? {};
    return {
      ...state,
      overrides: { ...state.overrides, [id]: { ...version, media: change(version.media ?? state.media) } },
    };
  }
  const partId = slot.slice(5);
  return {
    ...state,
    thread: state.thread.map((p) => (p.localId === partId ? { ...p, media: change(p.media) } : p)),
  };
}

export const patchItems = (media: MediaItem[], localId: string, patch: Partial<MediaItem>) =>
  media.map((m) => (m.localId === localId ? { ...m, ...patch } : m));
