import type { SchedulerConfig } from '#server/config.ts';
import type { AppLogger } from '#server/logger.ts';

/*
 * APP_URL is the one address of the app: media URLs, presigned upload URLs and OAuth redirects
 * are built from it. A browser that opened the app at another origin (http://127.0.0.1:3000
 * while APP_URL says http://localhost:3000) is refused the direct upload by CORS, and OAuth
 * callbacks land on the other origin without the session. The start-up warnings say so
 * (config.ts), so does the log on the first request from another origin, and the page shows a
 * banner (components/origin-warning.tsx).
 */

const warned = new Set<string>();

/**
 * Warns once per origin when a browser request comes from a page whose origin is not APP_URL's
 * (the Origin header of a fetch or form post). Nothing else happens: the request proceeds.
 */
export function warnOnForeignOrigin(config: SchedulerConfig, logger: AppLogger, request: Request): void {
  const origin = request.headers.get('origin');
  if (!origin || origin === 'null') return;
  const expected = new URL(config.appUrl).origin;
  if (origin === expected || warned.has(origin) || warned.size > 20) return;
  warned.add(origin);
  logger.warn(
    { pageOrigin: origin, appUrl: expected },
    `A page at ${origin} is using the app, but APP_URL is ${expected}: the browser blocks direct uploads to APP_URL ` +
      '(CORS) and the upload goes through the server instead. Open the app at APP_URL, or set APP_URL to the address people use.',
  );
}
