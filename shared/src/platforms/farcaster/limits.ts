import { utf8Length } from '../../text.ts';

/** A cast's text, in UTF-8 bytes (Farcaster's protocol limit). Browser-safe. */
export const maxCastBytes = 320;
/** A long cast (Farcaster Pro): up to 1024 bytes. */
export const maxLongCastBytes = 1024;
/** Embeds per cast. */
export const maxEmbeds = 2;
/** An embed URL, in UTF-8 bytes. */
export const maxEmbedUrlBytes = 256;

/** The byte limit that applies: 1024 with the `longCast` option, else 320. */
export function castLimit(options: { longCast?: unknown }): number {
  return options.longCast === true || options.longCast === 'true' ? maxLongCastBytes : maxCastBytes;
}

export const castBytes = utf8Length;
