// Bridge cost: npx tsx bench/bridges.ts
// 1. propose on a public-API-sized OpenAPI 3.1 description: 500 object schemas (generated: each
//    with ids, strings, an enum, a date-time, an inline object, a reference and an array of
//    references to neighbours, a scalar array), through POST /v1/bridges/propose.
// 2. map 1,000 records through POST /v1/bridges/{id}/map: first as creates (staged), then the same
//    records again (nothing to stage), then with every title changed (1,000 updates).
import { benchTenant, fmt, percentile, startBench, timed } from './support.js';

const SCHEMAS = 500;
const RUNS = Number(process.env.BENCH_RUNS ?? 7);

function largeDescription(): Record<string, unknown> {
  const schemas: Record<string, unknown> = {};
  for (let i = 0; i < SCHEMAS; i++) {
    schemas[`Thing${i}`] = {
      type: 'object',
      required: ['id', 'title'],
      properties: {
        id: { type: 'integer' },
        title: { type: 'string' },
        body: { type: 'string' },
        score: { type: 'number' },
        state: { type: 'string', enum: ['open', 'closed', 'draft'] },
        created_at: { type: 'string', format: 'date-time' },
        meta: { type: 'object', properties: { source: { type: 'string' }, weight: { type: 'integer' } } },
        owner: { $ref: `#/components/schemas/Thing${(i + 1) % SCHEMAS}` },
        related: { type: 'array', items: { $ref: `#/components/schemas/Thing${(i + 7) % SCHEMAS}` } },
        tags: { type: 'array', items: { type: 'string' } },
      },
    };
  }
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < SCHEMAS; i += 10) {
    paths[`/things${i}`] = {
      get: {
        responses: {
          '200': {
            description: 'ok',
            content: {
              'application/json': { schema: { type: 'array', items: { $ref: `#/components/schemas/Thing${i}` } } },
            },
          },
        },
      },
    };
  }
  return { openapi: '3.1.0', info: { title: 'Large', version: '1' }, paths, components: { schemas } };
}

const bench = await startBench('bridges', { neo4j: 17891, temporal: 17491 });
try {
  const tenant = await benchTenant(bench.service);
  const post = async (path: string, body: unknown) => {
    const r = await fetch(`${bench.service.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await r.json()) as Record<string, unknown>;
    if (r.status >= 300) throw new Error(`${path}: ${r.status} ${JSON.stringify(json).slice(0, 300)}`);
    return json;
  };
  const source = { format: 'openapi', document: largeDescription() };
  const proposeMs: number[] = [];
  let types = 0;
  for (let i = 0; i < RUNS; i++) {
    const [ms, reply] = await timed(() => post('/v1/bridges/propose', { source }));
    proposeMs.push(ms);
    types = (reply.proposal as { entity_types: unknown[] }).entity_types.length;
  }
  console.log(
    `propose ${SCHEMAS} schemas (${types} types): p50 ${fmt(percentile(proposeMs, 50))}, p95 ${fmt(percentile(proposeMs, 95))} over ${RUNS} runs`,
  );

  const item = structuredClone(
    (largeDescription().components as { schemas: Record<string, { properties: Record<string, unknown> }> }).schemas
      .Thing0!,
  );
  delete item.properties.owner;
  delete item.properties.related;
  const small = {
    format: 'openapi',
    document: {
      openapi: '3.1.0',
      info: { title: 's', version: '1' },
      paths: {},
      components: { schemas: { Item: item } },
    },
  };
  const created = await post('/v1/bridges', { name: 'bench', source: small, apply: true });
  const id = String(created.id);
  const records = (suffix: string) =>
    Array.from({ length: 1000 }, (_, i) => ({
      id: i + 1,
      title: `Item ${i + 1}${suffix}`,
      body: 'text',
      score: i / 10,
      state: 'open',
      created_at: '2026-01-01T00:00:00Z',
      meta: { source: 'bench', weight: i },
    }));
  const phases: [string, string][] = [
    ['create 1,000 (staged)', ''],
    ['same 1,000 again (0 changes)', ''],
    ['1,000 changed titles (updates)', ' v2'],
  ];
  for (const [label, suffix] of phases) {
    const ms: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const [t, reply] = await timed(() =>
        post(`/v1/bridges/${id}/map`, { record_type: 'Item', records: records(suffix) }),
      );
      ms.push(t);
      if (i === RUNS - 1) console.log(`  last counts: ${JSON.stringify(reply.counts)}`);
      // Each create/update run is rejected so the next run sees the same committed state.
      if (suffix !== '' || label.startsWith('create')) await post(`/v1/deltas/${String(reply.delta_id)}/reject`, {});
    }
    console.log(`map ${label}: p50 ${fmt(percentile(ms, 50))}, p95 ${fmt(percentile(ms, 95))} over ${RUNS} runs`);
    if (label.startsWith('create'))
      await post(`/v1/bridges/${id}/map`, { record_type: 'Item', records: records(''), apply: true });
  }
} finally {
  await bench.stop();
}
