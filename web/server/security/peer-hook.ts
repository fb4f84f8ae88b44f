import type { IncomingMessage, ServerResponse } from 'node:http';
import http from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';
import { answerBeforeRouting, answerClientError } from '@postwave/shared/http/client-error';
import { forwardedChainHeader } from './client-address.ts';

const installed = Symbol.for('postwave.peerHook');

/**
 * Next.js does not give route handlers the TCP peer address, and only fills X-Forwarded-For when
 * the client sent none (so a client's own header passes through unchanged). This records, before
 * Next.js sees the request, the client's X-Forwarded-For chain plus the real peer address under
 * a header of our own, overwriting any value the client sent under that name. It also answers
 * the requests Node cannot parse (`answerClientError`) or would refuse bodiless (no Host), which
 * never reach Next, and request targets Next mishandles (absolute and asterisk forms).
 */
export function installPeerHook(): void {
  for (const proto of [http.Server.prototype, https.Server.prototype] as unknown as Record<
    PropertyKey,
    unknown
  >[]) {
    if (proto[installed]) continue;
    const emit = proto.emit as (this: unknown, event: string | symbol, ...args: unknown[]) => boolean;
    proto.emit = function (this: unknown, event: string | symbol, ...args: unknown[]) {
      // Node's own Host check (read per request) answers without a body: answerBeforeRouting
      // answers it, and odd request targets, as problems. Turned off as the first connection
      // arrives, before any request is parsed.
      if (event === 'connection') (this as { requireHostHeader?: boolean }).requireHostHeader = false;
      if (event === 'request') {
        if (answerBeforeRouting(args[0] as IncomingMessage, args[1] as ServerResponse)) return true;
        recordChain(args[0] as IncomingMessage);
      }
      // A request Node cannot parse (oversize headers and the like) is a 400 problem, not a bare 431.
      if (event === 'clientError') {
        answerClientError(args[0] as Error, args[1] as Duplex);
        return true;
      }
      return emit.call(this, event, ...args);
    };
    proto[installed] = true;
  }
}

function recordChain(request: IncomingMessage): void {
  const peer = request.socket?.remoteAddress ?? 'unknown';
  const forwarded = request.headers['x-forwarded-for'];
  const chain = Array.isArray(forwarded) ? forwarded.join(', ') : forwarded;
  request.headers[forwardedChainHeader] = chain ? `${chain}, ${peer}` : peer;
}
