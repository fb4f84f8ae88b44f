import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

export interface EncryptionKey {
  /** Short fingerprint written into every ciphertext, so old keys can still decrypt after rotation. */
  id: string;
  key: Buffer;
}

/** A 32-byte key given as 64 hex characters or as base64/base64url. */
export function parseEncryptionKey(text: string): EncryptionKey {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed)
    ? Buffer.from(trimmed, 'hex')
    : Buffer.from(trimmed, 'base64url');
  if (key.length !== 32) throw new Error('must be 32 bytes, as 64 hex characters or base64');
  return { id: createHash('sha256').update(key).digest('hex').slice(0, 12), key };
}

const version = 'v1';

/**
 * AES-256-GCM with a random 96-bit IV: `v1.<keyId>.<iv>.<tag>.<ciphertext>` (base64url parts).
 * `associatedData` binds a ciphertext to its row so it cannot be swapped onto another one.
 */
export class CredentialCipher {
  readonly #current: EncryptionKey;
  readonly #keys: Map<string, Buffer>;

  constructor(keys: { current: EncryptionKey; previous: EncryptionKey[] }) {
    this.#current = keys.current;
    this.#keys = new Map([keys.current, ...keys.previous].map((k) => [k.id, k.key]));
  }

  get currentKeyId(): string {
    return this.#current.id;
  }

  encrypt(plaintext: string, associatedData: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#current.key, iv);
    cipher.setAAD(Buffer.from(associatedData));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [
      version,
      this.#current.id,
      iv.toString('base64url'),
      tag.toString('base64url'),
      body.toString('base64url'),
    ].join('.');
  }

  decrypt(ciphertext: string, associatedData: string): string {
    const [v, keyId, iv, tag, body] = ciphertext.split('.');
    if (v !== version || !keyId || !iv || !tag || body === undefined)
      throw new Error('Unrecognised ciphertext');
    const key = this.#keys.get(keyId);
    if (!key) throw new Error(`No encryption key with id ${keyId} is configured`);
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(associatedData));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }

  /** The key id a ciphertext was written with (rotation re-encrypts rows whose id is not current). */
  static keyIdOf(ciphertext: string): string | undefined {
    return ciphertext.split('.')[1];
  }

  encryptJson(value: unknown, associatedData: string): string {
    return this.encrypt(JSON.stringify(value), associatedData);
  }

  decryptJson<T>(ciphertext: string, associatedData: string): T {
    return JSON.parse(this.decrypt(ciphertext, associatedData)) as T;
  }
}
