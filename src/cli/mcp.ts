// `gks mcp`: an MCP server on stdio for desktop clients. It relays every message to the service's
// Streamable HTTP endpoint (GKS_URL + /mcp, bearer GKS_API_KEY), so both transports share one
// tool implementation; it never touches Neo4j.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export async function runMcpStdio(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const base = env.GKS_URL;
  const key = env.GKS_API_KEY;
  if (!base || !key) {
    process.stderr.write('gks mcp: set GKS_URL (e.g. http://127.0.0.1:8080) and GKS_API_KEY\n');
    process.exitCode = 2;
    return;
  }
  const remote = new StreamableHTTPClientTransport(new URL('/mcp', base), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
  const local = new StdioServerTransport();
  const fail = (error: Error): void => {
    process.stderr.write(`gks mcp: ${error.message}\n`);
  };
  local.onmessage = (message) => void remote.send(message).catch(fail);
  remote.onmessage = (message) => void local.send(message).catch(fail);
  remote.onerror = fail;
  local.onerror = fail;
  local.onclose = () => void remote.terminateSession().finally(() => void remote.close());
  await remote.start();
  await local.start();
}
