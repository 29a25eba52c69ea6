// Scale-out that stays correct (issue 58, part 3): two API processes (npm run api) and two workers (npm run
// worker) on one Neo4j and one Temporal, every process connected with the routing scheme (neo4j://, as a cluster
// or Aura is reached; one instance answers its routing table with itself), under a mixed load from --clients
// clients, each with a home process and the other one:
//   20% a memory written through home, then read through the other with the write's X-Graph-Bookmark;
//   10% a memory staged through home, then its delta applied through both processes at once (exactly one may);
//    4% a memory written with an Idempotency-Key sent to both processes at once (one write, one answer);
//   46% a lexical memory search; 20% a read by id of an acknowledged memory.
// A webhook endpoint subscribed to delta.applied is delivered by the two workers (each dispatches the outbox).
// Afterwards: every acknowledged memory is read back, every delta is applied once, every applied delta is
// delivered once. Prints one JSON line per figure; asserts nothing (its figures say what held).
// Run: npx tsx bench/scaleOut.ts [--memories 20000] [--seconds 30] [--clients 16]
//   (own Neo4j on GKS_BENCH_NEO4J_PORT, default 32687, and Temporal on that - 454).
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import neo4j from 'neo4j-driver';
import {
  benchTenant,
  figure,
  fillText,
  percentile,
  rawDriver,
  startApiProcess,
  startBench,
  startWorkerProcess,
  timed,
  words,
} from './support.js';

const { values } = parseArgs({
  options: {
    memories: { type: 'string', default: '20000' },
    seconds: { type: 'string', default: '30' },
    clients: { type: 'string', default: '16' },
    // Seconds of the same load first, not timed (new processes compile their code and plan their statements).
    warmup: { type: 'string', default: '15' },
    // bolt: the processes connect directly (the routing scheme's baseline).
    scheme: { type: 'string', default: 'neo4j' },
  },
});
const MEMORIES = Number(values.memories);
const SECONDS = Number(values.seconds);
const CLIENTS = Number(values.clients);
const WARMUP = Number(values.warmup);
const neo4jPort = Number(process.env.GKS_BENCH_NEO4J_PORT ?? 32687);

// Every process shares the secrets key (webhook secrets, bookmark tokens) as a deployment's processes do.
process.env.GKS_SECRETS_KEY ??= crypto.randomBytes(32).toString('base64');
process.env.FETCH_ALLOW_PRIVATE = 'true';
const env = await startBench(
  'scale-out',
  { neo4j: neo4jPort, temporal: neo4jPort - 454 },
  { temporal: true, worker: false },
);
const { service, endpoints } = env;
const auth = endpoints.neo4jAuth ?? {
  user: service.deps.config.neo4j.user,
  password: service.deps.config.neo4j.password,
};
const routed = endpoints.neo4jUri.replace(/^bolt:\/\//, `${values.scheme}://`);
const shared = {
  NEO4J_URI: routed,
  NEO4J_USER: auth.user,
  NEO4J_PASSWORD: auth.password,
  TEMPORAL_ADDRESS: endpoints.temporalAddress,
  GKS_SECRETS_KEY: process.env.GKS_SECRETS_KEY,
  FETCH_ALLOW_PRIVATE: 'true',
  GKS_EMBEDDINGS_PORT: String(neo4jPort + 5),
};
const received = new Map<string, number>();
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type: string; data: { delta_id?: string } };
    const id = event.data.delta_id;
    if (event.type === 'delta.applied' && id) received.set(id, (received.get(id) ?? 0) + 1);
    res.writeHead(200).end('ok');
  });
});
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
const processes = await Promise.all([startApiProcess(shared), startApiProcess(shared)]);
const workers = await Promise.all([startWorkerProcess(shared), startWorkerProcess(shared)]);
const driver = rawDriver(env);
try {
  const apis = processes.map((p) => p.url);
  const tenant = await benchTenant(service);
  const headers = { Authorization: `Bearer ${tenant.key}`, 'Content-Type': 'application/json' };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- reply bodies are read loosely
  type Reply = { status: number; json: any; bookmark: string | null };
  const call = async (base: string, method: string, path: string, body?: unknown, extra = {}): Promise<Reply> => {
    const r = await fetch(`${base}${path}`, {
      method,
      headers: { ...headers, ...extra },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: r.status, json: await r.json(), bookmark: r.headers.get('X-Graph-Bookmark') };
  };
  const hook = await call(apis[0]!, 'POST', '/v1/webhooks', { url: hookUrl, events: ['delta.applied'] });
  if (hook.status !== 201) throw new Error(`webhook answered ${hook.status}: ${JSON.stringify(hook.json)}`);

  let serial = 0;
  const statuses = new Map<number, number>();
  const count = (r: Reply) => statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
  const appliedDeltas: string[] = [];
  const acknowledged: string[] = [];
  // The fill, alternating processes: every batch is one applied delta, delivered once.
  for (let have = 0; have < MEMORIES; have += 100) {
    const memories = Array.from({ length: 100 }, () => ({ content: fillText((serial += 1)), kind: 'fact' }));
    const r = await call(apis[(have / 100) % 2]!, 'POST', '/v1/memories', { memories });
    count(r);
    if (r.status !== 201) throw new Error(`fill answered ${r.status}`);
    appliedDeltas.push(r.json.delta_id);
  }

  const notReadBack: string[] = [];
  const applyAnswers = new Map<string, number[]>();
  const keyed: { key: string; ids: string[] }[] = [];
  let latencies: number[] = [];
  let byKind = new Map<string, number[]>();
  const load = (seconds: number) => {
    const deadline = performance.now() + seconds * 1000;
    return Promise.all(
      Array.from({ length: CLIENTS }, async (_, c) => {
        const home = apis[c % 2]!;
        const other = apis[(c + 1) % 2]!;
        for (let i = 0; performance.now() < deadline; i += 1) {
          const pick = (c * 7919 + i * 104729) % 50;
          const kind =
            pick < 10 ? 'write_read_other' : pick < 15 ? 'stage_apply_both' : pick < 17 ? 'keyed_both' : 'read';
          const [ms] = await timed(async () => {
            const memory = { content: fillText((serial += 1)), kind: 'fact' };
            if (pick < 10) {
              const w = await call(home, 'POST', '/v1/memories', memory);
              count(w);
              if (w.status !== 201) return;
              acknowledged.push(w.json.id);
              appliedDeltas.push(w.json.delta_id);
              const read = await call(other, 'GET', `/v1/memories/${w.json.id}`, undefined, {
                'X-Graph-Bookmark': w.bookmark ?? '',
              });
              count(read);
              if (read.status !== 200) notReadBack.push(w.json.id);
            } else if (pick < 15) {
              const staged = await call(home, 'POST', '/v1/memories', { ...memory, apply: false });
              count(staged);
              if (staged.status !== 201) return;
              const id = staged.json.delta_id as string;
              const token = { 'X-Graph-Bookmark': staged.bookmark ?? '' };
              const answers = await Promise.all(
                [home, other].map((base) => call(base, 'POST', `/v1/deltas/${id}/apply`, {}, token)),
              );
              answers.forEach(count);
              applyAnswers.set(
                id,
                answers.map((a) => a.status),
              );
              if (answers.some((a) => a.status === 200)) {
                appliedDeltas.push(id);
                acknowledged.push(staged.json.id);
              }
            } else if (pick < 17) {
              const key = crypto.randomUUID();
              const answers = await Promise.all(
                [home, other].map((base) => call(base, 'POST', '/v1/memories', memory, { 'Idempotency-Key': key })),
              );
              answers.forEach(count);
              const ok = answers.filter((a) => a.status === 201);
              keyed.push({ key, ids: [...new Set(ok.map((a) => a.json.id as string))] });
              if (ok[0]) {
                acknowledged.push(ok[0].json.id);
                appliedDeltas.push(ok[0].json.delta_id);
              }
            } else if (pick < 40 || acknowledged.length === 0) {
              count(await call(home, 'POST', '/v1/memories/search', { query: words(c * 1e5 + i, 2), mode: 'lexical' }));
            } else {
              count(await call(home, 'GET', `/v1/memories/${acknowledged[(c + i) % acknowledged.length]}`));
            }
          });
          latencies.push(ms);
          byKind.set(kind, [...(byKind.get(kind) ?? []), ms]);
        }
      }),
    );
  };
  await load(WARMUP);
  latencies = [];
  byKind = new Map();
  await load(SECONDS);
  const answered = [...statuses.values()].reduce((a, b) => a + b, 0);
  const errors5xx = [...statuses].filter(([s]) => s >= 500).reduce((a, [, n]) => a + n, 0);
  figure('mixed_steps_per_s', latencies.length / SECONDS, {
    clients: CLIENTS,
    api_processes: 2,
    workers: 2,
    neo4j_uri_scheme: `${values.scheme}://`,
    p95_ms: +percentile(latencies, 95).toFixed(1),
    requests: answered,
    statuses: Object.fromEntries(statuses),
    errors_5xx: errors5xx,
    p95_ms_by_step: Object.fromEntries([...byKind].map(([k, v]) => [k, +percentile(v, 95).toFixed(1)])),
  });

  // Nothing lost: every acknowledged memory, read through the first process.
  let lost = 0;
  for (const id of acknowledged) if ((await call(apis[0]!, 'GET', `/v1/memories/${id}`)).status !== 200) lost += 1;
  figure('writes_lost', lost, { writes_acknowledged: acknowledged.length });
  figure('read_back_through_other_process_failed', notReadBack.length, { ids: notReadBack.slice(0, 5) });
  // Each staged delta applied by exactly one of the two processes, and recorded applied once.
  const races = [...applyAnswers.values()];
  const twice = races.filter((a) => a.filter((s) => s === 200).length > 1).length;
  const neither = races.filter((a) => !a.includes(200)).length;
  const rows = (
    await driver.executeQuery('MATCH (d:Delta) WHERE d.id IN $ids RETURN d.status AS status, count(*) AS n', {
      ids: [...applyAnswers.keys()],
    })
  ).records.map((r) => ({ status: r.get('status') as string, n: neo4j.integer.toNumber(r.get('n')) }));
  figure('deltas_applied_twice', twice, {
    apply_races: races.length,
    neither_applied: neither,
    other_answers: [...new Set(races.flat().filter((s) => s !== 200))],
    delta_status: rows,
  });
  // One write per Idempotency-Key, whichever process each copy reached.
  const memoriesOfKeys = keyed.filter((k) => k.ids.length !== 1).length;
  figure('idempotent_writes_not_once', memoriesOfKeys, { keys: keyed.length });
  // Every applied delta delivered once by the two workers (waits up to 180 s for the outbox to drain).
  const until = Date.now() + 180_000;
  while (appliedDeltas.some((id) => !received.has(id)) && Date.now() < until)
    await new Promise((r) => setTimeout(r, 500));
  figure('webhook_deliveries_missing', appliedDeltas.filter((id) => !received.has(id)).length, {
    applied_deltas: appliedDeltas.length,
    delivered_twice: [...received.values()].filter((n) => n > 1).length,
  });
} finally {
  await driver.close();
  await Promise.all([...processes, ...workers].map((p) => p.stop()));
  receiver.close();
  await env.stop();
}
