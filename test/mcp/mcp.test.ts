import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
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
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function text(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
}

describe('MCP over Streamable HTTP at /mcp', () => {
  it('lists only the tools the key has the scope for, with the route schemas and honest annotations', async () => {
    const t = await newTenant(0);
    const reader = await httpClient(await t.keyWith({ scopes: ['memories:read'] }));
    const names = (await reader.listTools()).tools.map((x) => x.name).sort();
    assert.deepEqual(names, ['get_memory', 'memory_history', 'recall', 'synthesize']);
    await reader.close();
    const full = await httpClient(t.key);
    const tools = (await full.listTools()).tools;
    const remember = tools.find((x) => x.name === 'remember')!;
    assert.equal(remember.annotations?.readOnlyHint, false);
    assert.ok(remember.inputSchema.properties?.content, 'remember takes the content field of POST /v1/memories');
    assert.equal(tools.find((x) => x.name === 'recall')!.annotations?.readOnlyHint, true);
    assert.equal(tools.find((x) => x.name === 'forget_memory')!.annotations?.destructiveHint, true);
    assert.ok(tools.some((x) => x.name === 'apply_delta'));
    const close = tools.find((x) => x.name === 'close_memory')!;
    assert.ok(
      close.inputSchema.properties?.valid_to,
      'close_memory takes the valid_to of POST /v1/memories/{id}/close',
    );
    await full.close();
  });

  it('remember then recall finds it, answered as a governed write', async () => {
    const t = await newTenant(0);
    const client = await httpClient(t.key);
    const wrote = await tool(client, 'remember', { content: 'The on-call rotation changes every Tuesday.' });
    assert.equal(wrote.isError, undefined);
    const sc = wrote.structuredContent as { delta_id: string; status: string; id: string };
    assert.equal(sc.status, 'applied');
    assert.equal(text(wrote), `Applied as delta ${sc.delta_id}; visible to recall now.`);
    const found = await tool(client, 'recall', { query: 'on-call rotation' });
    const hits = found.structuredContent as { count: number; nodes: { id: string }[] };
    assert.equal(hits.count, 1);
    assert.equal(hits.nodes[0]!.id, sc.id);
    await client.close();
  });

  it('a staged write is invisible to recall until apply_delta', async () => {
    const t = await newTenant(0);
    const client = await httpClient(t.key);
    const wrote = await tool(client, 'remember', { content: 'Backups run at midnight UTC.', apply: false });
    const sc = wrote.structuredContent as { delta_id: string; status: string };
    assert.equal(sc.status, 'staged');
    assert.equal(text(wrote), `Staged for review as delta ${sc.delta_id}; not visible to recall until applied.`);
    const before = await tool(client, 'recall', { query: 'backups midnight' });
    assert.equal((before.structuredContent as { count: number }).count, 0);
    const applied = await tool(client, 'apply_delta', { id: sc.delta_id });
    assert.equal(applied.isError, undefined, text(applied));
    const after = await tool(client, 'recall', { query: 'backups midnight' });
    assert.equal((after.structuredContent as { count: number }).count, 1);
    await client.close();
  });

  it('invalid arguments are a tool error naming the field; an unknown tool is a protocol error; the session survives', async () => {
    const t = await newTenant(0);
    const client = await httpClient(t.key);
    const bad = await tool(client, 'recall', { query: 'x', limit: 0 });
    assert.equal(bad.isError, true);
    assert.match(text(bad), /invalid_request/);
    assert.match(text(bad), /limit/);
    await assert.rejects(tool(client, 'no_such_tool', {}), /Unknown tool/);
    const reader = await httpClient(await t.keyWith({ scopes: ['memories:read'] }));
    await assert.rejects(tool(reader, 'remember', { content: 'x' }), /Unknown tool/);
    await reader.close();
    const ok = await tool(client, 'recall', { query: 'anything' });
    assert.equal(ok.isError, undefined);
    await client.close();
  });

  it('refuses /mcp without a bearer key with 401', async () => {
    const res = await fetch(new URL('/mcp', harness().url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{}',
    });
    assert.equal(res.status, 401);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'unauthorized');
  });
});

describe('MCP over stdio (gks mcp)', () => {
  it('a client launching gks mcp remembers and recalls through the HTTP API', async function () {
    this.timeout(60_000);
    const t = await newTenant(0);
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['bin/gks.js', 'mcp'],
        env: { ...(process.env as Record<string, string>), GKS_URL: harness().url, GKS_API_KEY: t.key },
        stderr: 'pipe',
      }),
    );
    assert.ok((await client.listTools()).tools.some((x) => x.name === 'remember'));
    const wrote = await tool(client, 'remember', { content: 'Deploys freeze on Fridays.' });
    assert.equal((wrote.structuredContent as { status: string }).status, 'applied');
    const found = await tool(client, 'recall', { query: 'deploys freeze' });
    assert.equal((found.structuredContent as { count: number }).count, 1);
    const bad = await tool(client, 'recall', { limit: 'many' });
    assert.equal(bad.isError, true);
    await client.close();
  });
});
