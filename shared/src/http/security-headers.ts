/**
 * Response headers (SECURITY.md, "Browser hardening"), in one place for both servers.
 */

/** Sent with every response of both servers. */
export const baselineSecurityHeaders: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Permissions-Policy':
    'accelerometer=(), camera=(), display-capture=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=(), browsing-topics=()',
  // For browsers that predate frame-ancestors.
  'X-Frame-Options': 'DENY',
};

/** For responses that are not pages (JSON, problems): nothing may load, nothing may frame it. */
export const apiContentSecurityPolicy = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";

/**
 * The page policy: scripts only from this origin with the request's nonce (Next's inline
 * bootstrap scripts carry it), no plugins, no framing. Styles allow inline attributes, which
 * React's `style` props produce. No form-action: approving a CLI or MCP client ends in a
 * redirect to that client, which form-action would block.
 */
export function pageContentSecurityPolicy(nonce?: string): string {
  const scripts = nonce ? `'self' 'nonce-${nonce}' 'strict-dynamic'` : "'self'";
  return [
    "default-src 'self'",
    `script-src ${scripts}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "media-src 'self' blob: https:",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-src 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Types a browser may show inline from /media; anything else (PDF, HTML, SVG's XML...) downloads. */
export function isInlineMediaType(contentType: string): boolean {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === 'image/svg+xml') return false;
  return /^(image|video|audio)\/[a-z0-9.+-]+$/.test(type);
}

/**
 * What every answer under `/media` carries, whatever it is (an upload's answer, a path no route
 * serves): never sniffed, sandboxed (no scripts, no same-origin) even when opened directly.
 */
export const mediaSandboxHeaders: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': 'sandbox',
};

/**
 * Headers for served media: sandboxed (`mediaSandboxHeaders`), and anything but images, video
 * and audio served as a download.
 */
export function mediaSecurityHeaders(contentType: string | undefined): Record<string, string> {
  return {
    ...mediaSandboxHeaders,
    ...(contentType && isInlineMediaType(contentType) ? {} : { 'Content-Disposition': 'attachment' }),
  };
}
