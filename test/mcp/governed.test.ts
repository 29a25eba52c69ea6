import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { newTenant } from '../support/api.js';
import { harness } from '../support/harness.js';

async function httpClient(key: string): Promise<Client> {
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/mcp', harness().url), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

async function tool(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  assert.equal(result.isError, undefined, JSON.stringify(result.content));
  return result;
}

describe('MCP governed corrections and briefs', () => {
  it('a correction through correct_memory is reverted through revert_delta', async () => {
    const t = await newTenant(0);
    const client = await httpClient(t.key);
    const wrote = await tool(client, 'remember', { content: 'The standup is at 9:30.' });
    const id = (wrote.structuredContent as { id: string }).id;
    const corrected = await tool(client, 'correct_memory', { id, content: 'The standup is at 10:00.' });
    const correction = corrected.structuredContent as { delta_id: string; status: string };
    assert.equal(correction.status, 'applied');
    const read = async () =>
      ((await tool(client, 'get_memory', { id })).structuredContent as { memory: { properties: { content: string } } })
        .memory.properties.content;
    assert.equal(await read(), 'The standup is at 10:00.');
    await tool(client, 'revert_delta', { id: correction.delta_id });
    assert.equal(await read(), 'The standup is at 9:30.');
    await client.close();
  });

  it('brief answers markdown within the token budget asked for', async () => {
    const t = await newTenant(0);
    const client = await httpClient(t.key);
    await tool(client, 'remember', {
      memories: Array.from({ length: 30 }, (_, i) => ({
        content: `Billing note ${i}: invoices for region ${i} go out monthly.`,
      })),
    });
    const brief = await tool(client, 'brief', { slice: { planes: ['memory'] }, query: 'billing', max_tokens: 256 });
    const body = brief.structuredContent as {
      markdown: string;
      pack: { budget: { used_tokens: number; max_tokens: number } };
    };
    assert.match(body.markdown, /Billing note/);
    assert.equal(body.pack.budget.max_tokens, 256);
    assert.ok(body.pack.budget.used_tokens <= 256, `used ${body.pack.budget.used_tokens}`);
    await client.close();
  });
});
