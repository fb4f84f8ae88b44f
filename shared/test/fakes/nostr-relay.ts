import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { npubEncode, nsecEncode } from 'nostr-tools/nip19';
import { type Event, getPublicKey, verifyEvent } from 'nostr-tools/pure';
import { bytesToHex } from 'nostr-tools/utils';
import { type WebSocket, WebSocketServer } from 'ws';

export interface FakeNostrRelayOptions {
  /**
   * `accept` stores valid events (`OK true`, a repeat answers `duplicate:`); `refuse` answers
   * `OK false` with `refuseMessage`; `silent` reads the event and never answers (a timeout).
   */
  mode?: 'accept' | 'refuse' | 'silent';
  /** NIP-01 machine-readable prefix and text; default "blocked: you are banned from posting here". */
  refuseMessage?: string;
  /** NIP-42: sends an `AUTH` challenge and refuses events with `auth-required:` until the client authenticates. */
  requireAuth?: boolean;
}

/** One connection's view, for assertions. */
export interface RelayConnection {
  /** The request's Host header: what the client asked for, whatever address it connected to. */
  host: string | undefined;
  authenticatedAs: string | undefined;
}

/**
 * A small NIP-01 relay on `ws`, strict like real relays: every `EVENT` is checked with
 * nostr-tools' `verifyEvent` (id = sha256 of the serialised event, Schnorr signature over it),
 * `OK` answers carry NIP-01 prefixes (`invalid:`, `blocked:`, `duplicate:`, `auth-required:`),
 * NIP-42 `AUTH` events are checked against the challenge and the relay URL, and `REQ` serves the
 * stored events (ids, authors, kinds filters) ending with `EOSE`.
 */
export class FakeNostrRelay {
  /** Events stored, in arrival order (each id once). */
  readonly events: Event[] = [];
  /** Every frame received, as parsed JSON. */
  readonly frames: unknown[] = [];
  readonly connections: RelayConnection[] = [];
  readonly #options: Required<FakeNostrRelayOptions>;
  #server: WebSocketServer | undefined;
  #url = '';

  constructor(options: FakeNostrRelayOptions = {}) {
    this.#options = {
      mode: options.mode ?? 'accept',
      refuseMessage: options.refuseMessage ?? 'blocked: you are banned from posting here',
      requireAuth: options.requireAuth ?? false,
    };
  }

  get url(): string {
    return this.#url;
  }

  /** EVENT frames received (a resend counts again). */
  get eventFrames(): Event[] {
    return this.frames
      .filter((f): f is [string, Event] => Array.isArray(f) && f[0] === 'EVENT')
      .map((f) => f[1]);
  }

  async start(): Promise<this> {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0, maxPayload: 512 * 1024 });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    this.#server = server;
    this.#url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
    server.on('connection', (socket, request) => {
      const connection: RelayConnection = { host: request.headers.host, authenticatedAs: undefined };
      this.connections.push(connection);
      const challenge = randomBytes(16).toString('hex');
      if (this.#options.requireAuth) send(socket, ['AUTH', challenge]);
      socket.on('message', (data) => this.#onMessage(socket, connection, challenge, String(data)));
    });
    return this;
  }

  async close(): Promise<void> {
    const server = this.#server;
    if (!server) return;
    for (const client of server.clients) client.terminate();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  #onMessage(socket: WebSocket, connection: RelayConnection, challenge: string, text: string): void {
    let frame: unknown;
    try {
      frame = JSON.parse(text);
    } catch {
      send(socket, ['NOTICE', 'error: could not parse message']);
      return;
    }
    this.frames.push(frame);
    if (!Array.isArray(frame) || typeof frame[0] !== 'string') {
      send(socket, ['NOTICE', 'error: messages are JSON arrays']);
      return;
    }
    if (frame[0] === 'EVENT') this.#onEvent(socket, connection, frame[1]);
    else if (frame[0] === 'AUTH') this.#onAuth(socket, connection, challenge, frame[1]);
    else if (frame[0] === 'REQ') this.#onReq(socket, frame);
    else if (frame[0] === 'CLOSE') send(socket, ['CLOSED', String(frame[1]), '']);
    else send(socket, ['NOTICE', `error: unknown message type ${frame[0].slice(0, 20)}`]);
  }

  #onEvent(socket: WebSocket, connection: RelayConnection, event: unknown): void {
    const id = isRecord(event) && typeof event.id === 'string' ? event.id : '';
    const problem = eventProblem(event);
    if (problem) {
      send(socket, ['OK', id, false, `invalid: ${problem}`]);
      return;
    }
    const valid = event as Event;
    if (this.#options.mode === 'silent') return;
    if (this.#options.requireAuth && !connection.authenticatedAs) {
      send(socket, ['OK', id, false, 'auth-required: we only accept events from registered users']);
      return;
    }
    if (this.#options.mode === 'refuse') {
      send(socket, ['OK', id, false, this.#options.refuseMessage]);
      return;
    }
    if (this.events.some((e) => e.id === id)) {
      send(socket, ['OK', id, true, 'duplicate: already have this event']);
      return;
    }
    this.events.push(valid);
    send(socket, ['OK', id, true, '']);
  }

  #onAuth(socket: WebSocket, connection: RelayConnection, challenge: string, event: unknown): void {
    const id = isRecord(event) && typeof event.id === 'string' ? event.id : '';
    const problem = eventProblem(event);
    if (problem) {
      send(socket, ['OK', id, false, `invalid: ${problem}`]);
      return;
    }
    const auth = event as Event;
    const tag = (name: string) => auth.tags.find((t) => t[0] === name)?.[1];
    if (auth.kind !== 22242) {
      send(socket, ['OK', id, false, 'invalid: AUTH needs kind 22242']);
      return;
    }
    if (tag('challenge') !== challenge) {
      send(socket, ['OK', id, false, 'invalid: wrong challenge']);
      return;
    }
    if (tag('relay')?.replace(/\/+$/, '') !== this.#url) {
      send(socket, ['OK', id, false, 'invalid: wrong relay url']);
      return;
    }
    if (Math.abs(auth.created_at - Date.now() / 1000) > 600) {
      send(socket, ['OK', id, false, 'invalid: created_at too far from now']);
      return;
    }
    connection.authenticatedAs = auth.pubkey;
    send(socket, ['OK', id, true, '']);
  }

  #onReq(socket: WebSocket, frame: unknown[]): void {
    const subscription = String(frame[1]);
    const filters = frame.slice(2).filter(isRecord);
    for (const event of this.events) {
      if (filters.length === 0 || filters.some((f) => matches(event, f)))
        send(socket, ['EVENT', subscription, event]);
    }
    send(socket, ['EOSE', subscription]);
  }
}

/** NIP-01 shape plus `verifyEvent` (the id is the hash of the event, the signature is the pubkey's). */
function eventProblem(event: unknown): string | undefined {
  if (!isRecord(event)) return 'event is not an object';
  const hex = (value: unknown, length: number) =>
    typeof value === 'string' && new RegExp(`^[0-9a-f]{${length}}$`).test(value);
  if (!hex(event.id, 64) || !hex(event.pubkey, 64) || !hex(event.sig, 128))
    return 'malformed id, pubkey or sig';
  if (!Number.isInteger(event.kind) || !Number.isInteger(event.created_at))
    return 'malformed kind or created_at';
  if (typeof event.content !== 'string') return 'content must be a string';
  const tags = event.tags;
  if (!Array.isArray(tags) || !tags.every((t) => Array.isArray(t) && t.every((v) => typeof v === 'string')))
    return 'tags must be arrays of strings';
  if (!verifyEvent(event as unknown as Event)) return 'event id or signature does not match';
  return undefined;
}

function matches(event: Event, filter: Record<string, unknown>): boolean {
  const inList = (list: unknown, value: string | number) => !Array.isArray(list) || list.includes(value);
  return (
    inList(filter.ids, event.id) && inList(filter.authors, event.pubkey) && inList(filter.kinds, event.kind)
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function send(socket: WebSocket, frame: unknown[]): void {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
}

export function startFakeNostrRelay(options: FakeNostrRelayOptions = {}): Promise<FakeNostrRelay> {
  return new FakeNostrRelay(options).start();
}

/** A throwaway identity for tests (never a real one's): the secret key filled with `seed`. */
export function nostrTestIdentity(seed = 7): {
  nsec: string;
  npub: string;
  pubkey: string;
  secretHex: string;
} {
  const secret = new Uint8Array(32).fill(seed);
  const pubkey = getPublicKey(secret);
  return { nsec: nsecEncode(secret), npub: npubEncode(pubkey), pubkey, secretHex: bytesToHex(secret) };
}

/** Whether an event's id and signature check out, as a relay verifies them. */
export function isValidNostrEvent(event: Event): boolean {
  return verifyEvent(event);
}
