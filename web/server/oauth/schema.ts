import { z } from 'zod';

/** An MCP client (AI assistant) that holds live tokens for a user. */
export const McpConnection = z
  .object({
    clientId: z.string(),
    name: z.string().nullable(),
    /** Where the authorization sent the user back: the client's host (or scheme for native apps). */
    redirectHost: z.string().nullable(),
    /** The first token the client still holds history for. */
    connectedAt: z.string(),
    /** The latest token issue (authorization or refresh) or recorded access token use. */
    lastUsedAt: z.string(),
  })
  .meta({ id: 'McpClient' });
export type McpConnection = z.infer<typeof McpConnection>;

export const McpConnectionList = z.object({ clients: z.array(McpConnection) });
