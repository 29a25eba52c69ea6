// Issue 26 benchmark: webhook deliveries to a local receiver. (1) The delay from a delta's apply (the
// write's answer) to the receiver getting its delta.applied, one write at a time (p50/p95). (2) Events
// per second delivered when BENCH_EVENTS writes are made by 8 concurrent clients, from the first
// write to the last delivery. Every delivery is verified with the library and the secret.
// Run: npx tsx bench/webhooks.ts   (own Neo4j and Temporal dev server on BENCH_NEO4J_PORT/BENCH_TEMPORAL_PORT,
// default 24887/24433, or NEO4J_URI/TEMPORAL_ADDRESS)
import { Webhook } from 'standardwebhooks';
import { benchTenant, fmt, percentile, startBench } from './support.js';
import { startReceiver } from '../test/webhooks/receiver.js';

const SEQUENTIAL = Number(process.env.BENCH_SEQUENTIAL ?? 100);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 500);
const CONCURRENCY = 8;
process.env.FETCH_ALLOW_PRIVATE = 'true';
process.env.GKS_SECRETS_KEY ??= Buffer.alloc(32, 9).toString('base64');
const env = await startBench(
  'webhooks',
  { neo4j: Number(process.env.BENCH_NEO4J_PORT ?? 24887), temporal: Number(process.env.BENCH_TEMPORAL_PORT ?? 24433) },
  { temporal: true },
);
const { service } = env;
const tenant = await benchTenant(service);
const headers = { Authorization: `Bearer ${tenant.key}`, 'Content-Type': 'application/json' };
const api = async (method: string, path: string, body?: unknown) => {
  const r = await fetch(`${service.url}${path}`, { method, headers, ...(body ? { body: JSON.stringify(body) } : {}) });
  return (await r.json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- bench reads replies loosely
};
const receiver = await startReceiver();

/** Arrival time of delta.applied per delta id. */
const arrivals = new Map<string, number>();
let verifiedUpTo = 0;
function collect(wh: Webhook): void {
  for (; verifiedUpTo < receiver.received.length; verifiedUpTo += 1) {
    const r = receiver.received[verifiedUpTo]!;
    const event = wh.verify(r.body, r.headers) as { data: { delta_id: string } };
    arrivals.set(event.data.delta_id, r.at);
  }
}

/** Waits until `count` requests arrived, verifying each as it comes (the library refuses timestamps older than 5 min). */
async function delivered(count: number, wh: Webhook): Promise<void> {
  const until = Date.now() + 600_000;
  while (receiver.received.length < count || verifiedUpTo < count) {
    collect(wh);
    if (Date.now() > until) throw new Error(`only ${receiver.received.length} of ${count} delivered in 10 min`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function arrived(deltaId: string, wh: Webhook): Promise<number> {
  for (;;) {
    collect(wh);
    const at = arrivals.get(deltaId);
    if (at !== undefined) return at;
    await new Promise((r) => setTimeout(r, 2));
  }
}

try {
  const created = await api('POST', '/v1/webhooks', { url: receiver.url, events: ['delta.applied'] });
  const wh = new Webhook(String(created.secret));
  // Warm up: the first delivery starts the workflow machinery.
  const warm = await api('POST', '/v1/memories', { content: 'warm up' });
  await arrived(String(warm.delta_id), wh);

  console.log(`\n== apply → delivery delay, ${SEQUENTIAL} writes one at a time ==`);
  const delays: number[] = [];
  for (let i = 0; i < SEQUENTIAL; i += 1) {
    const written = await api('POST', '/v1/memories', { content: `sequential ${i}` });
    const answeredAt = Date.now();
    delays.push((await arrived(String(written.delta_id), wh)) - answeredAt);
  }
  console.log(
    `p50 ${fmt(percentile(delays, 50))}  p95 ${fmt(percentile(delays, 95))}  max ${fmt(Math.max(...delays))}`,
  );

  console.log(`\n== ${EVENTS} writes by ${CONCURRENCY} concurrent clients, delivered as they come ==`);
  const burst = async (label: string) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < EVENTS) {
          next += 1;
          await api('POST', '/v1/memories', { content: `${label} ${next}` });
        }
      }),
    );
  };
  let before = receiver.received.length;
  let began = Date.now();
  await burst('burst');
  const writesDone = Date.now();
  await delivered(before + EVENTS, wh);
  let end = Date.now();
  console.log(
    `writes took ${fmt(writesDone - began)} (${(EVENTS / ((writesDone - began) / 1000)).toFixed(1)}/s); all ${EVENTS} ` +
      `delivered ${fmt(end - began)} after the first write → ${(EVENTS / ((end - began) / 1000)).toFixed(1)} events/s`,
  );

  console.log(`\n== ${EVENTS} events already in the outbox (dispatcher stopped while written), then delivered ==`);
  await service.dispatcher?.stop();
  await burst('backlog');
  before = receiver.received.length;
  began = Date.now();
  service.dispatcher?.start();
  await delivered(before + EVENTS, wh);
  end = Date.now();
  console.log(
    `all ${EVENTS} delivered in ${fmt(end - began)} → ${(EVENTS / ((end - began) / 1000)).toFixed(1)} events/s`,
  );

  // Where the time goes: event recorded → its delivery opened by the dispatcher (outbox), then → the attempt
  // (workflow start, workflow task, activity task).
  const rows = await service.deps.graph.read((tx) =>
    tx.runText(
      `MATCH (e:WebhookEvent) MATCH (d:WebhookDelivery {event_id: e.id})
       RETURN e.created_at AS created, d.created_at AS dispatched, d.last_attempt_at AS attempted`,
      {},
    ),
  );
  const stage = (from: string, to: string) =>
    rows.filter((r) => r[from] && r[to]).map((r) => Date.parse(String(r[to])) - Date.parse(String(r[from])));
  for (const [name, from, to] of [
    ['event → delivery opened', 'created', 'dispatched'],
    ['delivery opened → attempt', 'dispatched', 'attempted'],
  ] as const) {
    const ms = stage(from, to);
    console.log(`${name}: p50 ${fmt(percentile(ms, 50))}  p95 ${fmt(percentile(ms, 95))} (${ms.length} deliveries)`);
  }
} finally {
  await receiver.close();
  await env.stop();
}
