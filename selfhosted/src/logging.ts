import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';
import { type DestinationStream, type Logger, pino } from 'pino';

// Defence in depth: request serializers below never include headers or bodies, but anything
// logged by hand that carries one of these is masked too. No wildcards: pino applies these to every
// per-request child logger, and wildcard paths cost a third of a small request's time.
const redactPaths = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'apiKey',
  'credentials',
  'account.credentials',
  'botToken',
  'message',
  'body',
];

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'postwave-selfhosted' },
      redact: { paths: redactPaths, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}

const incomingRequestId = /^[A-Za-z0-9._:-]{1,128}$/;

/** Accepts a sane incoming x-request-id (so traces join up across proxies) or makes one. */
export function requestId(req: IncomingMessage, res: ServerResponse): string {
  const sent = req.headers['x-request-id'];
  const id = typeof sent === 'string' && incomingRequestId.test(sent) ? sent : randomUUID();
  res.setHeader('x-request-id', id);
  return id;
}

declare module 'node:http' {
  interface IncomingMessage {
    /** The request id (also sent back as x-request-id). */
    id: string;
    /** A child logger bound to this request's id, made on first use. */
    log: Logger;
  }
}

const requestLogger = Symbol('postwave.requestLogger');

type LoggedRequest = IncomingMessage & { [requestLogger]?: Logger };

/**
 * Request logging for an Express app: one line per request when it completes (method, path
 * without the query, status, time taken, request id). `req.log`, a child logger bound to the
 * request id, is made on first use by a getter on the app's request prototype, so a request that
 * logs nothing by hand costs no child logger (and no per-request property definitions, which slow
 * every later access to the request). Everything goes through `logger`, so its redaction applies.
 */
export function installRequestLogging(app: Express, logger: Logger): void {
  Object.defineProperty(app.request, 'log', {
    configurable: true,
    get(this: LoggedRequest): Logger {
      let child = this[requestLogger];
      if (!child) {
        child = logger.child({ reqId: this.id });
        this[requestLogger] = child;
      }
      return child;
    },
    set(this: LoggedRequest, value: Logger) {
      this[requestLogger] = value;
    },
  });
  app.use(logRequests(logger));
}

function logRequests(logger: Logger) {
  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    const started = performance.now();
    const id = requestId(req, res);
    req.id = id;
    res.once('close', () => {
      const status = res.statusCode;
      const completed = res.writableFinished;
      // 501 (not supported), 502 (platforms failed) and 503 (storage down) are answers, not our bugs.
      const level = !completed ? 'warn' : status === 500 ? 'error' : status > 500 ? 'warn' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      const method = req.method ?? 'GET';
      // Path only: query strings of signed upload URLs are credentials.
      const path = (req.url ?? '').split('?', 1)[0];
      const line = {
        req: { id, method, path },
        res: { status },
        responseTime: Math.round(performance.now() - started),
      };
      logger[level](line, completed ? `${method} ${path} ${status}` : `${method} ${path} aborted`);
    });
    next();
  };
}
