// Ready-to-paste setups of Shelfmark's MCP server for the common coding assistants. Pure
// (no DOM): the Connect page renders them, and test/mcp/connect-setups.test.ts parses each
// text back and makes the MCP calls it describes (over HTTP and stdio).
//
// Each setup: { id, name, where, format: 'json'|'toml'|'shell', transport: 'http'|'stdio', text, note }.
// HTTP setups send the key as `Authorization: Bearer` (proxies keep it; some drop header
// names with underscores, such as SHELFMARK_API_KEY). Clients whose config file has no
// remote servers (Claude Desktop) use the stdio bridge, which needs a Shelfmark checkout at
// `stdio.script` on the assistant's machine.

const json = (value) => JSON.stringify(value, null, 2);
const tomlString = (s) => JSON.stringify(String(s)); // a TOML basic string is a JSON string here (no control characters)
const shellQuote = (s) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${String(s).replace(/'/g, `'\\''`)}'`);

/**
 * @param {{ mcpUrl: string, apiUrl: string, key?: string, stdio: { command: string, script: string } }} o
 *   `key` empty: no key (anonymous rate limits; refused when the server requires a key).
 */
export function connectSetups({ mcpUrl, apiUrl, key, stdio }) {
  const headers = key ? { Authorization: `Bearer ${key}` } : undefined;
  const stdioArgs = [stdio.script, 'mcp', '--transport', 'stdio', '--api-url', apiUrl, ...(key ? ['--api-key', key] : [])];
  const stdioServer = { command: stdio.command, args: stdioArgs };
  const remote = (extra = {}) => ({ ...extra, ...(headers ? { headers } : {}) });
  return [
    {
      id: 'claude-code',
      name: 'Claude Code',
      where: 'Run in a terminal (adds the server to your user settings):',
      format: 'shell',
      transport: 'http',
      text: [
        'claude',
        'mcp',
        'add',
        '--transport',
        'http',
        '--scope',
        'user',
        'shelfmark',
        mcpUrl,
        ...(headers ? ['--header', `Authorization: Bearer ${key}`] : []),
      ]
        .map(shellQuote)
        .join(' '),
      note: 'Then /mcp in Claude Code lists shelfmark and its tools.',
    },
    {
      id: 'claude-desktop',
      name: 'Claude Desktop',
      where: 'Settings → Developer → Edit Config (claude_desktop_config.json):',
      format: 'json',
      transport: 'stdio',
      text: json({ mcpServers: { shelfmark: stdioServer } }),
      note: 'Claude Desktop starts local servers only from this file, so it runs Shelfmark’s stdio bridge: Node 20+ and a Shelfmark checkout at this path on your computer.',
    },
    {
      id: 'cursor',
      name: 'Cursor',
      where: '~/.cursor/mcp.json (or .cursor/mcp.json in a project):',
      format: 'json',
      transport: 'http',
      text: json({ mcpServers: { shelfmark: remote({ url: mcpUrl }) } }),
    },
    {
      id: 'vscode',
      name: 'VS Code',
      where: '.vscode/mcp.json in your project (or “MCP: Open User Configuration”):',
      format: 'json',
      transport: 'http',
      text: json({ servers: { shelfmark: remote({ type: 'http', url: mcpUrl }) } }),
    },
    {
      id: 'windsurf',
      name: 'Windsurf',
      where: '~/.codeium/windsurf/mcp_config.json:',
      format: 'json',
      transport: 'http',
      text: json({ mcpServers: { shelfmark: remote({ serverUrl: mcpUrl }) } }),
    },
    {
      id: 'codex',
      name: 'Codex CLI',
      where: '~/.codex/config.toml:',
      format: 'toml',
      transport: 'http',
      text: [
        '[mcp_servers.shelfmark]',
        `url = ${tomlString(mcpUrl)}`,
        ...(headers ? [`http_headers = { "Authorization" = ${tomlString(headers.Authorization)} }`] : []),
      ].join('\n'),
    },
    {
      id: 'zed',
      name: 'Zed',
      where: 'Zed settings (zed: open settings file), merged into the top-level object:',
      format: 'json',
      transport: 'http',
      text: json({ context_servers: { shelfmark: remote({ url: mcpUrl }) } }),
    },
    {
      id: 'jetbrains',
      name: 'JetBrains IDEs',
      where: 'Settings → Tools → AI Assistant → Model Context Protocol (MCP) → Add → As JSON:',
      format: 'json',
      transport: 'http',
      text: json({ mcpServers: { shelfmark: remote({ url: mcpUrl }) } }),
    },
    {
      id: 'gemini',
      name: 'Gemini CLI',
      where: '~/.gemini/settings.json:',
      format: 'json',
      transport: 'http',
      text: json({ mcpServers: { shelfmark: remote({ httpUrl: mcpUrl }) } }),
    },
    {
      id: 'stdio',
      name: 'Any client (stdio)',
      where: 'For a client that starts a command: run this on the machine where Shelfmark is installed (or a checkout at the same path):',
      format: 'shell',
      transport: 'stdio',
      text: [stdio.command, ...stdioArgs].map(shellQuote).join(' '),
      note: 'The bridge speaks MCP on stdin/stdout and asks this server over HTTP.',
    },
  ];
}

/** The key shown in place of one not chosen yet. */
export const KEY_PLACEHOLDER = 'smk_YOUR_KEY';
