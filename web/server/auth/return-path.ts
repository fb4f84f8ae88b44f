/**
 * Where to go after signing in: a path on this site taken from a `next` or `callbackUrl` value,
 * or undefined. An absolute URL counts only when it is APP_URL's origin; `//host` and `/\host`
 * (which browsers read as another host) never do, so a link cannot send a user elsewhere.
 */
export function returnPath(candidate: string | undefined, appUrl: string): string | undefined {
  if (!candidate) return undefined;
  let url: URL;
  try {
    url = new URL(candidate, appUrl);
  } catch {
    return undefined;
  }
  if (url.origin !== new URL(appUrl).origin) return undefined;
  const path = `${url.pathname}${url.search}${url.hash}`;
  return path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\') ? path : undefined;
}
