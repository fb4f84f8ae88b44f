import { fileTypeFromBuffer } from 'file-type';
import { type AcceptedContentType, isAcceptedContentType } from '../media/kinds.ts';

/** How many leading bytes sniffing looks at (file-type's own sample size). */
export const sniffBytes = 4100;

/** Non-canonical spellings (from clients or from the sniffer) of types we accept. */
const aliases: Record<string, string> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'image/x-png': 'image/png',
  'video/x-quicktime': 'video/quicktime',
  'video/mov': 'video/quicktime',
  'application/x-pdf': 'application/pdf',
  // An MP4 with Apple's M4V brand (common from iPhone and iTunes exports) is a plain MP4 to platforms.
  'video/x-m4v': 'video/mp4',
};

/** The media type from the bytes themselves, when it is one we accept; undefined otherwise. */
export async function sniffContentType(head: Uint8Array): Promise<AcceptedContentType | undefined> {
  if (head.byteLength === 0) return undefined;
  const detected = await fileTypeFromBuffer(head.subarray(0, sniffBytes));
  if (!detected) return undefined;
  const type = normalizeContentType(detected.mime);
  return type && isAcceptedContentType(type) ? type : undefined;
}

/**
 * A client-declared type reduced to its canonical essence (lowercase, no parameters, aliases
 * resolved). Empty and `application/octet-stream` mean "not declared" and give undefined.
 */
export function normalizeContentType(declared: string | undefined | null): string | undefined {
  const essence = (declared ?? '').split(';')[0]!.trim().toLowerCase();
  if (essence === '' || essence === 'application/octet-stream') return undefined;
  return aliases[essence] ?? essence;
}
