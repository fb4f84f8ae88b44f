import { randomInt } from 'node:crypto';
import { extensionFor } from '../media/kinds.ts';
import { mediaKeyPattern } from '../schemas/media.ts';
import { StorageError } from './types.ts';

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** 22 characters from 62 carry about 131 bits: keys double as unguessable capabilities. */
const randomLength = 22;
const maxSlugLength = 60;

/**
 * A fresh key `<22 random alphanumerics>-<slug of filename>.<ext>`. The extension comes from the
 * (sniffed or bound) media type, never from the client's file name.
 */
export function newMediaKey(filename: string, contentType: string): string {
  let random = '';
  for (let i = 0; i < randomLength; i++) random += alphabet[randomInt(alphabet.length)];
  return `${random}-${filenameSlug(filename)}.${extensionFor(contentType)}`;
}

/** The readable part of a key: what `newMediaKey` made of the client's file name. */
export function filenameFromKey(key: string): string {
  return /^[A-Za-z0-9]{22}-(.+)$/.exec(key)?.[1] ?? key;
}

/** A lowercase ASCII slug of the base name without its extension; "media" when nothing is left. */
export function filenameSlug(filename: string): string {
  const base = filename.split(/[/\\]/).pop() ?? '';
  const withoutExtension = base.includes('.') ? base.slice(0, base.lastIndexOf('.')) : base;
  const slug = withoutExtension
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, maxSlugLength)
    .replace(/^-+|-+$/g, '');
  return slug || 'media';
}

export function isValidMediaKey(key: string): boolean {
  return mediaKeyPattern.test(key);
}

/** Storages call this before touching a key, so no key can name anything but a plain object. */
export function assertValidMediaKey(key: string): void {
  if (!isValidMediaKey(key)) throw new StorageError('invalid_key', 'Not a valid media key');
}
