import { unknownPathHandlers } from '#server/api/unknown-path.ts';

export const runtime = 'nodejs';

/** Any `/mcp` path no other route serves: a 404 problem body, not Next's HTML page. */
export const { GET, POST, PUT, PATCH, DELETE } = unknownPathHandlers('unknownMcpPath');
