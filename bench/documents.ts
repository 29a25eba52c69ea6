// Indexing throughput of one 1 MB text document through the service function (read, chunk, one
// applied delta with every chunk, collections and links) and through POST /v1/documents (a
// multipart upload, since a 1 MB JSON body passes the JSON limit), plus a chunk_text query after.
// Run: npx tsx bench/documents.ts   (own Neo4j on 21787, or NEO4J_URI)
import { luceneQuery } from '../src/db/tenant.js';
import { createDocument } from '../src/documents/service.js';
import { benchTenant, fmt, percentile, startBench, timed, words } from './support.js';

const MB = 1024 * 1024;
const RUNS = 3;

/** About 1 MB of prose in paragraphs, different per seed so no two documents share chunks. */
function megabyte(seed: number): string {
  const paragraphs: string[] = [];
  let length = 0;
  for (let i = 0; length < MB; i += 1) {
    const sentences = Array.from({ length: 6 }, (_, j) => `${words(seed * 1_000_003 + i * 7 + j, 12)}.`);
    const paragraph = sentences.map((s) => s[0]!.toUpperCase() + s.slice(1)).join(' ');
    paragraphs.push(paragraph);
    length += paragraph.length + 2;
  }
  return paragraphs.join('\n\n').slice(0, MB);
}

const env = await startBench('documents', { neo4j: 21787, temporal: 21333 });
try {
  const { service } = env;
  const deps = service.deps;
  const tenant = await benchTenant(service);
  const keyRow = await deps.graph.read((tx) =>
    tx.runText('MATCH (k:ApiKey {project_id: $p}) RETURN k.id AS id', { p: tenant.projectId }),
  );
  const actor = {
    projectId: tenant.projectId,
    organizationId: tenant.organizationId,
    keyId: String(keyRow[0]?.id),
    requestId: 'bench',
  };

  const report = (label: string, ms: number, chunks: number) =>
    console.log(
      `${label.padEnd(44)} ${fmt(ms).padStart(10)}  ${(1 / (ms / 1000)).toFixed(2).padStart(5)} MB/s  ${(chunks / (ms / 1000)).toFixed(0).padStart(5)} chunks/s  (${chunks} chunks)`,
    );
  console.log('\n== indexing one 1 MB text document (one delta each) ==');
  // The first document after start pays for JIT and query planning on an empty graph.
  const [coldMs, cold] = await timed(() =>
    createDocument(deps, actor, { content: megabyte(999), title: 'cold', tags: ['bench'] }),
  );
  report('cold: first document after start', coldMs, cold.chunkCount);
  await createDocument(deps, actor, { content: megabyte(998), title: 'warm-up', tags: ['bench'] });
  const service_: number[] = [];
  let chunkCount = 0;
  for (let run = 0; run < RUNS; run += 1) {
    const [ms, created] = await timed(() =>
      createDocument(deps, actor, { content: megabyte(run), title: `bench ${run}`, tags: ['bench', 'large'] }),
    );
    service_.push(ms);
    chunkCount = created.chunkCount;
    report('service createDocument (raw text)', ms, created.chunkCount);
  }
  const api: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const form = new FormData();
    form.append('file', new Blob([megabyte(100 + run)], { type: 'text/plain' }), `bench-${run}.txt`);
    form.append('tags', 'bench,upload');
    const [ms, reply] = await timed(async () => {
      const r = await fetch(`${service.url}/v1/documents`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${tenant.key}` },
        body: form,
      });
      return (await r.json()) as { id: string; document: { ragReady: boolean } };
    });
    if (!reply.document?.ragReady) throw new Error(`upload failed: ${JSON.stringify(reply)}`);
    const chunks = await deps.graph.read((tx) =>
      tx.runText('MATCH (d:Document {id: $id}) RETURN d.chunk_count AS n', { id: reply.id }),
    );
    api.push(ms);
    report('API POST /v1/documents (1 MB multipart)', ms, Number(chunks[0]?.n));
  }
  const median = (xs: number[]) => percentile(xs, 50);
  console.log(
    `median warm: service ${(1000 / median(service_)).toFixed(2)} MB/s, ${((chunkCount * 1000) / median(service_)).toFixed(0)} chunks/s; API ${(1000 / median(api)).toFixed(2)} MB/s`,
  );
  const deltas = await deps.graph.read((tx) =>
    tx.runText(
      "MATCH (d:Delta {project_id: $p, origin: 'document'}) RETURN count(d) AS deltas, sum(d.change_count) AS changes",
      { p: tenant.projectId },
    ),
  );
  console.log(`deltas written: ${deltas[0]?.deltas} (one per document), ${deltas[0]?.changes} changes in all`);
  const lucene = luceneQuery('glacier lantern', tenant.projectId)!;
  const [queryMs, hits] = await timed(() =>
    deps.graph.read((tx) =>
      tx.runText(
        "CALL db.index.fulltext.queryNodes('chunk_text', $q, {limit: 10}) YIELD node, score WHERE NOT node:Pending RETURN count(node) AS n",
        { q: lucene },
      ),
    ),
  );
  console.log(`chunk_text query over ${RUNS * 2 + 2} documents: ${hits[0]?.n} hits in ${fmt(queryMs)}`);
} finally {
  await env.stop();
}
