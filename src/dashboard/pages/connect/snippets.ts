/** Configuration snippets for common MCP clients, for the OAuth flow or an API key. */
export type AuthMode = 'oauth' | 'key';

export interface Snippet {
  id: string;
  client: string;
  where: string;
  language: 'json' | 'shell';
  text: string;
}

export function snippets(mcpUrl: string, mode: AuthMode, key: string): Snippet[] {
  const bearer = `Bearer ${key || 'sk-YOUR-KEY'}`;
  const headers = mode === 'key' ? { headers: { Authorization: bearer } } : {};
  const json = (v: unknown) => JSON.stringify(v, null, 2);
  return [
    {
      id: 'claude-code',
      client: 'Claude Code',
      where: 'a terminal',
      language: 'shell',
      text: mode === 'key' ? `claude mcp add --transport http legal-search ${mcpUrl} \\\n  --header "Authorization: ${bearer}"` : `claude mcp add --transport http legal-search ${mcpUrl}\n# then /mcp in Claude Code opens the sign-in page in your browser`,
    },
    {
      id: 'claude-desktop',
      client: 'Claude Desktop',
      where: 'claude_desktop_config.json (Settings → Developer → Edit config)',
      language: 'json',
      text: json({
        mcpServers: {
          'legal-search': { command: 'npx', args: ['-y', 'mcp-remote', mcpUrl, ...(mode === 'key' ? ['--header', `Authorization:${bearer}`] : [])] },
        },
      }),
    },
    {
      id: 'cursor',
      client: 'Cursor',
      where: '~/.cursor/mcp.json',
      language: 'json',
      text: json({ mcpServers: { 'legal-search': { url: mcpUrl, ...headers } } }),
    },
    {
      id: 'vscode',
      client: 'VS Code (GitHub Copilot)',
      where: '.vscode/mcp.json',
      language: 'json',
      text: json({ servers: { 'legal-search': { type: 'http', url: mcpUrl, ...headers } } }),
    },
    {
      id: 'curl',
      client: 'Any client (check with curl)',
      where: 'a terminal',
      language: 'shell',
      text: `curl -s ${mcpUrl} -H 'content-type: application/json' -H 'accept: application/json, text/event-stream' \\\n  -H 'Authorization: ${bearer}' \\\n  -d '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'`,
    },
  ];
}
