// The Preflight area (docs/preflight.md): a read-only audit of what applying a staged delta would do to the
// graph. (Explicit applies honour the verdict: the delta routes hand preflightApplyGuard to applyDelta.)
import type { Deps } from '../http/deps.js';
import { defineRoutes, route } from '../http/route.js';
import { bodyActor } from '../http/records.js';
import { auditDeltaWithMeaning } from './service.js';
import { auditBody, verdictSchema } from './schemas.js';

export function preflightRoutes(deps: Deps) {
  return defineRoutes([
    route<typeof verdictSchema>({
      method: 'post',
      path: '/v1/preflight/audit',
      operationId: 'auditDelta',
      tag: 'Preflight',
      scope: 'preflight:run',
      summary: 'Audit a staged delta: would applying it degrade the graph?',
      description:
        'A read-only dry run of the checks in cypher/preflight/ against the graph as it would be after the ' +
        'merge (committed graph plus the delta, minus what it deletes, with its updates). ' +
        'Nothing is written. The same graph and delta give the same verdict byte for byte apart from request_id ' +
        '(and degraded). The duplicates check also compares the meaning of the memories the delta creates with ' +
        'the committed memories of the project and with each other (rules near_content, near_content_in_delta: ' +
        'warnings naming both memories and their cosine similarity), and proposes committed entities of the same ' +
        'type near a new entity by meaning (rule near_entity, info: nothing is merged); thresholds in ' +
        'docs/recall.md. While the embedding ' +
        'engine is down, off or slow that part is skipped and degraded says ["semantic"]. ' +
        'A delta that is no longer staged (applied, rejected, reverted, failed) is a 409: the question only ' +
        'means something before an apply.',
      body: auditBody,
      status: 200,
      errors: ['not_found', 'conflict'],
      response: verdictSchema,
      handler: async (ctx) => {
        const { body, actor } = await bodyActor<typeof auditBody>(deps, ctx);
        const verdict = await auditDeltaWithMeaning(deps, actor, body.delta_id);
        return { body: { ...verdict } };
      },
    }),
  ]);
}
