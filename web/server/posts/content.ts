import type {
  AccountOptions,
  MediaReference,
  NormalizedOverride,
  NormalizedPost,
  NormalizedThreadPart,
} from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import type { StoredMedia, StoredOverride, StoredThreadPart } from '#server/db/schema.ts';
import { validationFailed } from '#server/http/problems.ts';
import { ownedMedia, toStoredMedia } from '#server/media/service.ts';
import type { PostRow } from './repository.ts';

/** What a post says and where it goes, with its media resolved to the user's stored media. */
export interface Content {
  message: string;
  accountIds: string[];
  media: StoredMedia[];
  accountOptions: AccountOptions;
  overrides: Record<string, StoredOverride>;
  thread: StoredThreadPart[];
}

export function contentOf(row: PostRow): Content {
  return {
    message: row.message,
    accountIds: row.accountIds,
    media: row.media,
    accountOptions: row.accountOptions,
    overrides: row.overrides,
    thread: row.thread,
  };
}

/** Media references with where they sit in the request, for error paths. */
interface MediaSet {
  path: string;
  refs: readonly MediaReference[];
}

/**
 * Media references resolved to this user's stored media, set by set, in one lookup; anyone
 * else's key is `media_not_found`. The alt text given with a reference is kept with it.
 */
async function resolveOwnedMedia(
  ctx: AppContext,
  workspaceId: string,
  sets: readonly MediaSet[],
): Promise<StoredMedia[][]> {
  const owned = await ownedMedia(ctx, workspaceId, [
    ...new Set(sets.flatMap((s) => s.refs.map((r) => r.key))),
  ]);
  const missing = sets.flatMap(({ path, refs }) =>
    refs.flatMap((ref, index) =>
      owned.has(ref.key)
        ? []
        : [{ path: `${path}[${index}]`, code: 'media_not_found', message: `No media with key "${ref.key}"` }],
    ),
  );
  if (missing.length) throw validationFailed('Some media do not exist', missing);
  return sets.map(({ refs }) =>
    refs.map((ref) => ({
      ...toStoredMedia(ctx, owned.get(ref.key)!),
      ...(ref.altText ? { altText: ref.altText } : {}),
    })),
  );
}

/** The parts of a request that name media, resolved (each left undefined when not given). */
export async function resolveContentMedia(
  ctx: AppContext,
  workspaceId: string,
  given: {
    media?: readonly MediaReference[] | undefined;
    overrides?: Record<string, NormalizedOverride> | undefined;
    thread?: readonly NormalizedThreadPart[] | undefined;
  },
): Promise<{
  media?: StoredMedia[];
  overrides?: Record<string, StoredOverride>;
  thread?: StoredThreadPart[];
}> {
  const overrideEntries = Object.entries(given.overrides ?? {});
  const sets: MediaSet[] = [
    { path: 'media', refs: given.media ?? [] },
    ...overrideEntries.map(([id, o]) => ({ path: `overrides.${id}.media`, refs: o.media ?? [] })),
    ...(given.thread ?? []).map((part, i) => ({ path: `thread[${i}].media`, refs: part.media })),
  ];
  const [media, ...rest] = await resolveOwnedMedia(ctx, workspaceId, sets);
  const overrides: Record<string, StoredOverride> = {};
  for (const [i, [id, o]] of overrideEntries.entries()) {
    overrides[id] = {
      ...(o.message !== undefined ? { message: o.message } : {}),
      ...(o.media !== undefined ? { media: rest[i]! } : {}),
    };
  }
  const threadMedia = rest.slice(overrideEntries.length);
  return {
    ...(given.media ? { media: media! } : {}),
    ...(given.overrides ? { overrides } : {}),
    ...(given.thread
      ? { thread: given.thread.map((part, i) => ({ message: part.message, media: threadMedia[i]! })) }
      : {}),
  };
}

/** A new post's content with its media resolved from the user's storage, and its row's common fields. */
export async function newPostContent(
  ctx: AppContext,
  workspaceId: string,
  input: Omit<NormalizedPost, 'postingMode' | 'scheduledAt'>,
  /** The member who writes it; null for a post a feed creates. */
  authorId: string | null = null,
) {
  const resolved = await resolveContentMedia(ctx, workspaceId, {
    media: input.media,
    overrides: input.overrides ?? {},
    thread: input.thread ?? [],
  });
  const content: Content = {
    message: input.message,
    accountIds: input.accountIds,
    media: resolved.media!,
    accountOptions: input.accountOptions,
    overrides: resolved.overrides!,
    thread: resolved.thread!,
  };
  const now = new Date();
  const base = {
    id: crypto.randomUUID(),
    workspaceId,
    userId: authorId,
    ...content,
    createdAt: now,
    updatedAt: now,
  };
  return { content, base, now };
}
