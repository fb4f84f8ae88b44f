import { CopyButton } from './copy-button.tsx';

/**
 * Where an assistant connects (issue 30): this server's /mcp address and ready snippets for the
 * common MCP clients, each with a copy button. The clients themselves run the OAuth sign-in and
 * consent (docs/mcp.md#connecting-a-client).
 */
export function McpConnect({ mcpUrl }: { mcpUrl: string }) {
  const snippets = [
    {
      id: 'claude-code',
      client: 'Claude Code',
      how: 'Run in a terminal, then /mcp inside Claude Code and choose Authenticate.',
      text: `claude mcp add --transport http postwave ${mcpUrl}`,
    },
    {
      id: 'cursor',
      client: 'Cursor',
      how: 'In ~/.cursor/mcp.json, then choose “Needs login”.',
      text: JSON.stringify({ mcpServers: { postwave: { url: mcpUrl } } }, null, 2),
    },
    {
      id: 'vscode',
      client: 'VS Code',
      how: 'In .vscode/mcp.json, then Start the server.',
      text: JSON.stringify({ servers: { postwave: { type: 'http', url: mcpUrl } } }, null, 2),
    },
    {
      id: 'claude-desktop',
      client: 'Claude Desktop / claude.ai',
      how: 'Settings → Connectors → Add custom connector, with this URL.',
      text: mcpUrl,
    },
  ];
  return (
    <div className="stack" data-testid="mcp-connect">
      <div className="field">
        <label htmlFor="mcp-url">MCP server address</label>
        <div className="row copy-row">
          <input id="mcp-url" className="input mono" value={mcpUrl} readOnly />
          <CopyButton text={mcpUrl} label="MCP server address" />
        </div>
        <p className="hint">
          Add this address to your assistant; it opens a page here where you approve it. See{' '}
          <a href="/docs">the API reference</a> for the HTTP API.
        </p>
      </div>
      <details className="mcp-snippets">
        <summary>Ready-made setup for common assistants</summary>
        <div className="stack">
          {snippets.map((s) => (
            <div key={s.id} className="stack snippet" style={{ gap: 6 }}>
              <div className="row" style={{ justifyContent: 'space-between' }}>
                <strong id={`mcp-snippet-${s.id}`}>{s.client}</strong>
                <CopyButton text={s.text} label={`${s.client} setup`} />
              </div>
              <p className="hint">{s.how}</p>
              <pre className="code-block" data-testid={`mcp-snippet-${s.id}`}>
                {s.text}
              </pre>
            </div>
          ))}
        </div>
      </details>
    </div>
  );
}
