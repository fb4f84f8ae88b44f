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

export function createLogger(level: string): AppLogger {
  return pino({ level, redact: { paths: redact, censor: '[redacted]' }, base: { service: 'scheduler' } });
}
