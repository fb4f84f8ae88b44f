/** A finished answer exactly as it went out, so a replay can send the same bytes. */
export interface StoredResponse {
  status: number;
  contentType: string;
  body: string;
}

/** Identifies a key: the caller's scope plus the client's `Idempotency-Key`. */
export interface KeyRef {
  scope: string;
  key: string;
}

export type ClaimResult =
  /** The key was free (or its earlier answer expired): the caller now holds it and must finish. */
  | { state: 'claimed' }
  /** Another request holds the key and has not finished. */
  | { state: 'in_progress'; fingerprint: string }
  /** A request with this key finished within the window. */
  | { state: 'completed'; fingerprint: string; response: StoredResponse };

/**
 * Where keys live: in memory on the self-hosted server, in the database on the Scheduler. Every
 * operation must be atomic across everything that shares the store (all Scheduler instances).
 * `now` is passed in so tests can move time.
 */
export interface IdempotencyStore {
  /** Takes the key for `fingerprint` unless a live claim or an unexpired answer holds it. */
  claim(ref: KeyRef, fingerprint: string, now: Date): Promise<ClaimResult>;
  /** Stores the answer of a claimed key until `expiresAt`. */
  complete(ref: KeyRef, response: StoredResponse, expiresAt: Date): Promise<void>;
  /** Frees a claimed key without storing anything (the request was refused before publishing). */
  release(ref: KeyRef): Promise<void>;
}
