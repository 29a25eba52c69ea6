// The ops view (GET /v1/status, scope admin): dependency health with last errors and outage counts,
// supervised engines with pids, restarts and last exits, and the Temporal worker. It authenticates
// through the graph, so while Neo4j is down it answers 503 too: /readyz, /metrics and the logs
// (which need nothing) carry the outage itself.
import type { Deps } from '../http/deps.js';
import { defineRoutes, route } from '../http/route.js';
import { embeddingsStatus, readBacklog } from '../embeddings/status.js';
import { MENTIONS_BACKLOG } from '../memories/mentionWorker.js';
import { VectorCounts, VECTOR_COUNTS_WINDOW_MS } from '../embeddings/vectorCounts.js';
import { opsStatus } from './status.js';
import { opsStatusSchema } from './schemas.js';

export function opsRoutes(deps: Deps) {
  const vectorCounts = new VectorCounts();
  return defineRoutes([
    route<typeof opsStatusSchema>({
      method: 'get',
      path: '/v1/status',
      operationId: 'getOpsStatus',
      tag: 'System',
      scope: 'admin',
      summary: 'Operational status: dependencies, supervised engines, worker, embeddings',
      description:
        'Needs the admin scope. Dependency states are those the API acts on (probes every 2 s and failed calls). ' +
        '`embeddings` says where vectors come from, the engine state, the backlog of nodes waiting for a vector, ' +
        'how many nodes carry vectors of the current model (counted at most once every ' +
        `${VECTOR_COUNTS_WINDOW_MS / 1000} s by each API process; \`vectors.counted_at\` says when), and whether a ` +
        'vector index serves another model (then run `gks reembed`).',
      status: 200,
      response: opsStatusSchema,
      errors: ['graph_unavailable'],
      handler: async () => {
        const { embeddings: _health, ...status } = opsStatus(deps);
        const runtime = deps.runtime.embeddings;
        return {
          body: {
            ...status,
            embeddings: runtime ? await embeddingsStatus(deps.graph, runtime, (g, m) => vectorCounts.read(g, m)) : null,
            mentions: { backlog: await readBacklog(deps.graph, MENTIONS_BACKLOG) },
          },
        };
      },
    }),
  ]);
}
