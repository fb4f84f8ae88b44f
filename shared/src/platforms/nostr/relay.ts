import type { Event } from 'nostr-tools/pure';
import type WebSocket from 'ws';
import { withDeadline } from '../../http/deadline.ts';
import { remoteText } from '../../http/remote-text.ts';
import { type SafeFetchOptions, UnsafeUrlError } from '../../http/safe-fetch.ts';
import { openSocket } from '../../http/safe-socket.ts';
import type { RelayOutcome } from '../../schemas/results.ts';

export interface RelaySendOptions {
  /** The address policy for a user-chosen relay; undefined for the operator's `NOSTR_RELAYS`. */
  policy: SafeFetchOptions | undefined;
  /** Connecting and the `OK` answer together. */
  timeoutMs: number;
  signal: AbortSignal;
  /** A signed NIP-42 `AUTH` event for a relay's challenge, for relays that answer `auth-required:`. */
  authenticate?: (relay: string, challenge: string) => Event;
}

/** A relay's answer, with what the publisher needs to classify a note no relay accepted. */
export interface RelayAnswer extends RelayOutcome {
  /** Trying again cannot help (the address is not allowed). */
  permanent?: boolean;
}

/**
 * Sends one signed event to one relay (NIP-01): `["EVENT", event]`, then waits for
 * `["OK", id, accepted, message]`. A relay that asks for NIP-42 authentication (`AUTH` challenge,
 * then `OK false "auth-required: …"`) gets a signed `AUTH` event and the note once more. Never
 * throws: every relay's outcome is reported, including timeouts and refused addresses.
 */
export async function sendToRelay(
  relay: string,
  event: Event,
  options: RelaySendOptions,
): Promise<RelayAnswer> {
  const deadline = withDeadline(options.signal, options.timeoutMs);
  let socket: WebSocket | undefined;
  let challenge: string | undefined;
  let authId: string | undefined;
  let settle: ((answer: RelayAnswer) => void) | undefined;
  const answered = new Promise<RelayAnswer>((resolve) => {
    settle = resolve;
  });
  const finish = (answer: RelayAnswer) => settle?.(answer);
  const send = (frame: unknown[]) => socket?.send(JSON.stringify(frame));

  const onMessage = (data: WebSocket.RawData) => {
    const frame = parseFrame(data);
    if (!frame) return;
    const [type, id, accepted, text] = frame;
    if (type === 'AUTH' && typeof id === 'string') {
      challenge = id;
      return;
    }
    if (type !== 'OK') return;
    const message = remoteText(text) ?? '';
    if (authId !== undefined && id === authId) {
      if (accepted === true) send(['EVENT', event]);
      else finish({ url: relay, status: 'refused', message: message || 'authentication refused' });
      return;
    }
    if (id !== event.id) return;
    if (accepted === true) {
      finish({ url: relay, status: 'accepted', ...(message ? { message } : {}) });
      return;
    }
    if (message.startsWith('auth-required:') && challenge && authId === undefined && options.authenticate) {
      const auth = options.authenticate(relay, challenge);
      authId = auth.id;
      send(['AUTH', auth]);
      return;
    }
    finish({ url: relay, status: 'refused', message: message || 'refused without a reason' });
  };

  try {
    socket = await openSocket(relay, { policy: options.policy, signal: deadline.signal, onMessage });
  } catch (error) {
    const timedOut = deadline.timedOut;
    deadline.dispose();
    if (timedOut) return timeout(relay, options.timeoutMs);
    if (error instanceof UnsafeUrlError && error.code !== 'fetch_failed' && error.code !== 'host_not_found')
      return { url: relay, status: 'unreachable', message: error.message, permanent: true };
    if (error instanceof UnsafeUrlError && error.code === 'host_not_found')
      return { url: relay, status: 'unreachable', message: error.message };
    return {
      url: relay,
      status: 'unreachable',
      message: options.signal.aborted ? 'cancelled' : 'could not connect',
    };
  }
  const open = socket;
  const onAbort = () =>
    finish(
      deadline.timedOut
        ? timeout(relay, options.timeoutMs)
        : { url: relay, status: 'timeout', message: 'cancelled before the relay answered' },
    );
  deadline.signal.addEventListener('abort', onAbort, { once: true });
  open.on('close', () =>
    finish({ url: relay, status: 'unreachable', message: 'closed the connection before answering' }),
  );
  open.on('error', () => finish({ url: relay, status: 'unreachable', message: 'the connection failed' }));
  send(['EVENT', event]);
  const answer = await answered;
  deadline.dispose();
  deadline.signal.removeEventListener('abort', onAbort);
  open.removeAllListeners('message');
  open.close();
  // A relay that never completes the closing handshake does not hold the socket open.
  setTimeout(() => open.terminate(), 1_000).unref();
  return answer;
}

function timeout(relay: string, ms: number): RelayAnswer {
  return { url: relay, status: 'timeout', message: `no answer within ${ms} ms` };
}

/** A relay message as an array (`["OK", …]`, `["AUTH", …]`, `["NOTICE", …]`), or undefined. */
function parseFrame(data: WebSocket.RawData): unknown[] | undefined {
  try {
    const parsed: unknown = JSON.parse(String(data));
    return Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
