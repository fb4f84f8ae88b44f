import pino from 'pino';

/** Paths that may hold secrets; pino replaces them before anything is written. */
const redact = [
  'credentials',
  '*.credentials',
  'password',
  '*.password',
  'token',
  '*.token',
  'authorization',
  '*.authorization',
  'headers.authorization',
  'headers.cookie',
  'refreshToken',
  'accessToken',
  'clientSecret',
  'botToken',
];

export type AppLogger = pino.Logger;

/** Errors as pino serializes them, minus anything that quotes query data (bound parameters, row details). */
function serializeError(error: unknown): unknown {
  const serialized = pino.stdSerializers.err(error as Error) as unknown;
  return stripQueryData(serialized, 0);
}

function stripQueryData(value: unknown, depth: number): unknown {
  if (!value || typeof value !== 'object' || depth > 5) return value;
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const key of ['params', 'parameters', 'detail', 'where']) delete copy[key];
  if (typeof copy.message === 'string') copy.message = copy.message.replace(/\nparams: [\s\S]*$/, '');
  if (typeof copy.stack === 'string') copy.stack = copy.stack.replace(/\nparams: [^\n]*/, '');
  if (copy.cause) copy.cause = stripQueryData(copy.cause, depth + 1);
  return copy;
}

export function createLogger(level: string): AppLogger {
  return pino({
    level,
    redact: { paths: redact, censor: '[redacted]' },
    serializers: { err: serializeError, error: serializeError },
    base: { service: 'scheduler' },
  });
}
