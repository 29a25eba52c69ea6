// recall over MCP Streamable HTTP (/mcp, the SDK's Client) against the same search over plain
// HTTP (POST /v1/memories/search), on 500 memories in one project. Alternating order, p50/p95.
// Run: npx tsx bench/mcp.ts   (own Neo4j on BENCH_NEO4J_PORT, default 19787)
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { benchTenant, fmt, percentile, startBench, timed, words } from './support.js';

const MEMORIES = 500;
const QUERIES = 200;
const WARM_UP = 20;

const env = await startBench('mcp', {
  neo4j: Number(process.env.BENCH_NEO4J_PORT ?? 19787),
  temporal: Number(process.env.BENCH_TEMPORAL_PORT ?? 19333),
});
try {
  const { key } = await benchTenant(env.service);
  const url = env.service.url;
  const headers = { Authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  for (let i = 0; i < MEMORIES; i += 100) {
    const memories = Array.from({ length: 100 }, (_, j) => ({ content: `${words(i + j, 20)}.` }));
    const res = await fetch(`${url}/v1/memories`, { method: 'POST', headers, body: JSON.stringify({ memories }) });
    if (res.status !== 201) throw new Error(`seed failed: ${res.status} ${await res.text()}`);
  }
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', url), { requestInit: { headers } }));
  const plain: number[] = [];
  const mcp: number[] = [];
  for (let i = 0; i < WARM_UP + QUERIES; i++) {
    const query = words(1_000_000 + i, 3);
    const viaHttp = (): Promise<unknown> =>
      fetch(`${url}/v1/memories/search`, { method: 'POST', headers, body: JSON.stringify({ query }) }).then((r) =>
        r.json(),
      );
    const viaMcp = (): Promise<unknown> => client.callTool({ name: 'recall', arguments: { query } });
    const [a] = await timed(i % 2 ? viaHttp : viaMcp);
    const [b] = await timed(i % 2 ? viaMcp : viaHttp);
    if (i < WARM_UP) continue;
    (i % 2 ? plain : mcp).push(a);
    (i % 2 ? mcp : plain).push(b);
  }
  await client.close();
  const row = (name: string, s: number[]) =>
    `${name.padEnd(28)} p50 ${fmt(percentile(s, 50))}  p95 ${fmt(percentile(s, 95))}`;
  console.log(row('POST /v1/memories/search', plain));
  console.log(row('MCP recall (Streamable HTTP)', mcp));
  console.log(`ratio p50 ${(percentile(mcp, 50) / percentile(plain, 50)).toFixed(2)}x`);
} finally {
  await env.stop();
}
