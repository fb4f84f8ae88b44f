import { randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { AppContext } from '#server/context.ts';
import type { McpCaller } from './auth.ts';
import { createMcpServer } from './server.ts';

/** A session nobody has used for this long is closed; its client re-initializes on its next request. */
const sessionIdleMs = 60 * 60_000;
/** Oldest sessions of a user beyond this many are closed (a client that never says DELETE). */
const maxSessionsPerUser = 50;
const sweepEveryMs = 60_000;

export interface McpSession {
  id: string;
  userId: string;
  /** The workspace the session's grant acts in: a grant for another workspace never joins it. */
  workspaceId: string;
  clientId: string;
  transport: WebStandardStreamableHTTPServerTransport;
  lastSeen: number;
  close(): Promise<void>;
}

interface Registry {
  sessions: Map<string, McpSession>;
  sweeper?: NodeJS.Timeout;
}

/*
 * Sessions live in this process (an MCP session is a live server object with pending requests and
 * an open GET stream). Behind a load balancer, route by the `Mcp-Session-Id` header (sticky); a
 * request for an unknown session gets 404 and the client starts a new one. Status notifications
 * reach every instance through the database, so any instance holding a session can deliver them.
 */
const holder = globalThis as typeof globalThis & { __postwaveMcpSessions?: Registry };

function registry(): Registry {
  holder.__postwaveMcpSessions ??= { sessions: new Map() };
  const current = holder.__postwaveMcpSessions;
  if (!current.sweeper) {
    current.sweeper = setInterval(() => {
      const cutoff = Date.now() - sessionIdleMs;
      for (const session of current.sessions.values()) if (session.lastSeen < cutoff) void session.close();
    }, sweepEveryMs);
    current.sweeper.unref();
  }
  return current;
}

/** The caller's own session, or undefined (unknown, expired, or someone else's: all look the same). */
export function findSession(sessionId: string, caller: McpCaller): McpSession | undefined {
  const session = registry().sessions.get(sessionId);
  if (
    !session ||
    session.userId !== caller.userId ||
    session.workspaceId !== caller.workspaceId ||
    session.clientId !== caller.clientId
  )
    return undefined;
  session.lastSeen = Date.now();
  return session;
}

function enforceUserLimit(userId: string): void {
  const mine = [...registry().sessions.values()]
    .filter((s) => s.userId === userId)
    .sort((a, b) => a.lastSeen - b.lastSeen);
  for (const session of mine.slice(0, Math.max(0, mine.length - maxSessionsPerUser + 1)))
    void session.close();
}

/** A stateful transport and server for an `initialize` request; registered once the SDK assigns the id. */
export async function startSession(
  ctx: AppContext,
  caller: McpCaller,
): Promise<WebStandardStreamableHTTPServerTransport> {
  const { sessions } = registry();
  enforceUserLimit(caller.userId);
  const built = createMcpServer(ctx, caller, { sessionful: true });
  let session: McpSession | undefined;
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (id) => {
      session = {
        id,
        userId: caller.userId,
        workspaceId: caller.workspaceId,
        clientId: caller.clientId,
        transport,
        lastSeen: Date.now(),
        close: async () => {
          if (sessions.get(id) === session) sessions.delete(id);
          built.dispose();
          await built.server.close().catch(() => {});
        },
      };
      sessions.set(id, session);
    },
    onsessionclosed: (id) => {
      const closing = sessions.get(id);
      if (closing) void closing.close();
    },
  });
  transport.onclose = () => {
    built.dispose();
    if (session && sessions.get(session.id) === session) sessions.delete(session.id);
  };
  await built.server.connect(transport);
  return transport;
}

/** One request, one server: for clients that skip initialize (plain JSON-RPC calls). */
export async function statelessTransport(
  ctx: AppContext,
  caller: McpCaller,
): Promise<{ transport: WebStandardStreamableHTTPServerTransport; dispose: () => void }> {
  const built = createMcpServer(ctx, caller, { sessionful: false });
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await built.server.connect(transport);
  return { transport, dispose: built.dispose };
}
