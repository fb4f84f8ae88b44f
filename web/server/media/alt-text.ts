import type { MediaReference, NormalizedOverride, NormalizedThreadPart } from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import { ownedMedia } from './repository.ts';

interface MediaBearing {
  media: readonly MediaReference[];
  overrides?: Readonly<Record<string, NormalizedOverride>> | undefined;
  thread?: readonly NormalizedThreadPart[] | undefined;
}

/**
 * The post with the library's alt text filled in wherever a media reference has none of its own
 * (contract section I: a media's alt text is the default wherever it is reused). Applied when a
 * post is validated and when it is published, so a later edit of the library's alt text reaches
 * posts not yet published; alt text given with the post always wins.
 */
export async function withLibraryAltText<T extends MediaBearing>(
  ctx: AppContext,
  workspaceId: string,
  input: T,
): Promise<T> {
  const refs = [
    ...input.media,
    ...Object.values(input.overrides ?? {}).flatMap((o) => o.media ?? []),
    ...(input.thread ?? []).flatMap((part) => part.media),
  ];
  const bare = [
    ...new Set(refs.filter((ref) => !ref.altText && typeof ref.key === 'string').map((ref) => ref.key)),
  ];
  if (bare.length === 0) return input;
  const rows = await ownedMedia(ctx, workspaceId, bare);
  const altOf = new Map(
    [...rows].flatMap(([key, row]) => (row.altText ? [[key, row.altText] as const] : [])),
  );
  if (altOf.size === 0) return input;
  const fill = (list: readonly MediaReference[]): MediaReference[] =>
    list.map((ref) => (!ref.altText && altOf.has(ref.key) ? { ...ref, altText: altOf.get(ref.key)! } : ref));
  return {
    ...input,
    media: fill(input.media),
    ...(input.overrides
      ? {
          overrides: Object.fromEntries(
            Object.entries(input.overrides).map(([id, o]) => [
              id,
              o.media ? { ...o, media: fill(o.media) } : o,
            ]),
          ),
        }
      : {}),
    ...(input.thread ? { thread: input.thread.map((part) => ({ ...part, media: fill(part.media) })) } : {}),
  };
}
