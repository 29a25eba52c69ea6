import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { harness } from '../support/harness.js';

const open = new Set<Client>();

/** Closes every client a test opened (a failed assertion must not leave a stream holding the server open). */
export async function closeClients(): Promise<void> {
  await Promise.all([...open].map((c) => c.close().catch(() => undefined)));
  open.clear();
}

/** The SDK's own client over Streamable HTTP at /mcp, as the given key; closed after each test by closeClients. */
export async function httpClient(key: string): Promise<Client> {
  const client = new Client({ name: 'test', version: '1.0.0' });
  open.add(client);
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/mcp', harness().url), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** A tool call that must succeed; its structured content. */
export async function ok<T = Record<string, unknown>>(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<T> {
  const result = await call(client, name, args);
  assert.equal(result.isError, undefined, `${name}: ${JSON.stringify(result.content)}`);
  return result.structuredContent as T;
}

export function text(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
}
