import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type DestinationStream, type Logger, pino } from 'pino';
import { pinoHttp } from 'pino-http';

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

export function httpLogger(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId: requestId,
    // req.log carries only the request id, not the whole serialized request, on every line.
    quietReqLogger: true,
    // 501 (not supported), 502 (platforms failed) and 503 (storage down) are answers, not our bugs.
    customLogLevel: (_req, res, error) =>
      error || res.statusCode === 500 ? 'error' : res.statusCode > 500 ? 'warn' : 'info',
    // The error itself is logged once, by the problem handler; pino-http would add a synthetic one.
    customErrorObject: (_req, _res, _error, value: Record<string, unknown>) => ({
      res: value.res,
      responseTime: value.responseTime,
    }),
    serializers: {
      // Path only: query strings of signed upload URLs are credentials.
      req: (req: { id: unknown; method: string; url: string; raw?: IncomingMessage }) => ({
        id: req.id,
        method: req.method,
        path: req.url.split('?')[0],
      }),
      res: (res: { statusCode: number }) => ({ status: res.statusCode }),
    },
    customSuccessMessage: (req, res) => `${req.method} ${(req.url ?? '').split('?')[0]} ${res.statusCode}`,
    customErrorMessage: (req, res) => `${req.method} ${(req.url ?? '').split('?')[0]} ${res.statusCode}`,
  });
}
