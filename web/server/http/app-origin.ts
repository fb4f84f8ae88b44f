import type { SchedulerConfig } from '#server/config.ts';
import type { AppLogger } from '#server/logger.ts';

/*
 * APP_URL is the one address of the app: media URLs, presigned upload URLs and OAuth redirects
 * are built from it. A browser that opened the app at another origin (http://127.0.0.1:3000
 * while APP_URL says http://localhost:3000) is refused the direct upload by CORS, and OAuth
 * callbacks land on the other origin without the session. Say so at start and on the first
 * request from another origin, and the page shows a banner (components/origin-warning.tsx).
 */

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The start-up line about APP_URL: what it is and why the browser must use exactly it. */
export function logAppUrlAtStart(config: SchedulerConfig, logger: AppLogger): void {
  const origin = new URL(config.appUrl).origin;
  const explicit = Boolean(config.env.APP_URL?.trim());
  const { hostname, port } = new URL(config.appUrl);
  if (!explicit || loopbackHosts.has(hostname)) {
    const other = hostname === 'localhost' ? '127.0.0.1' : 'localhost';
    logger.warn(
      { appUrl: origin },
      `${explicit ? 'APP_URL is' : 'APP_URL is not set; using'} ${origin}. Open the app at exactly this address: ` +
        `http://${other}${port ? `:${port}` : ''} is a different origin to the browser, so direct uploads are blocked (CORS) ` +
        'and sign-in redirects lose the session. Set APP_URL to the address people open.',
    );
  }
}

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
