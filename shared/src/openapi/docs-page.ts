import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Interactive API docs: Scalar's standalone bundle, served by us from node_modules (no CDN: a
 * self-hosted box may have no internet), rendering the server's own `/openapi.json`.
 */
export const scalarScriptPath = '/docs/scalar.js';

let bundle: Buffer | undefined;

const bundlePath = join('node_modules', '@scalar', 'api-reference', 'dist', 'browser', 'standalone.js');

/**
 * Finds the bundle in the nearest node_modules above the working directory (or this file). Found
 * by walking the folders rather than through module resolution: the package exports no subpath for
 * it, and inside a Next.js server bundle `import.meta.url` no longer names a real file.
 */
function findBundle(): string {
  const starts = [process.cwd()];
  if (import.meta.url.startsWith('file:')) starts.push(dirname(fileURLToPath(import.meta.url)));
  for (const start of starts) {
    for (let dir = start; ; dir = dirname(dir)) {
      const candidate = join(dir, bundlePath);
      if (existsSync(candidate)) return candidate;
      if (dirname(dir) === dir) break;
    }
  }
  throw new Error('@scalar/api-reference is not installed: the /docs page cannot load');
}

/** The Scalar standalone script (about 4 MB), read once on first use. */
export function scalarBundle(): Buffer {
  bundle ??= readFileSync(findBundle());
  return bundle;
}

const escapeAttribute = (value: string): string =>
  value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');

/**
 * Scalar's options for a self-hosted server (issue 30): no hosted-service buttons that cannot work
 * here ("Ask AI" is Scalar's agent, "Generate MCP" its MCP service, "Deploy"/"Share" the developer
 * toolbar, shown on localhost by default), no client download button, no font CDN.
 */
export const scalarConfiguration = {
  withDefaultFonts: false,
  hideClientButton: true,
  showDeveloperTools: 'never',
  agent: { disabled: true },
  mcp: { disabled: true },
} as const;

/** The `/docs` page: a title, a no-script note and Scalar pointed at `specUrl`. */
export function docsPageHtml(title: string, specUrl = '/openapi.json'): string {
  const configuration = escapeAttribute(JSON.stringify(scalarConfiguration));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeAttribute(title)}</title>
</head>
<body>
<noscript><p>The interactive reference needs JavaScript. The description itself is at <a href="${escapeAttribute(specUrl)}">${escapeAttribute(specUrl)}</a>.</p></noscript>
<script id="api-reference" data-url="${escapeAttribute(specUrl)}" data-configuration="${configuration}"></script>
<script src="${scalarScriptPath}"></script>
</body>
</html>
`;
}

/** The content security policy the docs page needs: our own script, Scalar's inline styles, our API. */
export const docsPageCsp =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
