'use client';

import { useRouter } from 'next/navigation';
import { ConfirmButton } from '../confirm-button.tsx';
import { EmptyState } from '../empty-state.tsx';
import { api, describeError } from '../lib/api.ts';
import { formatDateTime } from '../lib/time.ts';

export interface McpClientRow {
  clientId: string;
  name: string | null;
  redirectHost: string | null;
  connectedAt: string;
  lastUsedAt: string;
}

/** Connected MCP clients (AI assistants) with a confirmed Revoke each. */
export function McpClients({ clients, timezone }: { clients: McpClientRow[]; timezone: string }) {
  const router = useRouter();
  if (clients.length === 0) {
    return (
      <EmptyState icon="⌁" title="No assistants connected">
        When you approve an MCP client (such as an AI assistant) to post for you, it appears here and you can
        revoke its access.
      </EmptyState>
    );
  }
  return (
    <table className="table">
      <thead>
        <tr>
          <th>Client</th>
          <th className="hide-sm">Connected</th>
          <th>Last used</th>
          <th>
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {clients.map((c) => {
          const name = c.name ?? 'Unnamed application';
          return (
            <tr key={c.clientId}>
              <td>
                <div className="cell-title">{name}</div>
                {c.redirectHost && <div className="cell-sub">Returns to {c.redirectHost}</div>}
              </td>
              <td className="hide-sm">{formatDateTime(c.connectedAt, timezone)}</td>
              <td>{formatDateTime(c.lastUsedAt, timezone)}</td>
              <td style={{ textAlign: 'right' }}>
                <ConfirmButton
                  label="Revoke"
                  className="btn btn-sm btn-ghost"
                  title={`Disconnect “${name}”?`}
                  body="It can no longer read or post as you. To use it again, you will have to approve it again."
                  confirmLabel="Revoke access"
                  onConfirm={async () => {
                    try {
                      await api(
                        'DELETE',
                        `/api/v1/mcp-clients?${new URLSearchParams({ clientId: c.clientId })}`,
                      );
                    } catch (e) {
                      throw new Error(describeError(e));
                    }
                    router.refresh();
                  }}
                />
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
