// Submissions: a generic capture door. Route delta stores a :Submission node (flat properties) and
// the entities its content names, through one delta; route document indexes the content as a
// document; route extraction indexes it and starts a graph_extraction loop through a shape.
import type { Graph } from '../db/graph.js';
import { payloadProperties } from './payload.js';
import { DeltaDraft, isReservedLabel } from '../deltas/draft.js';
import { writeGoverned, type Actor, type WriteOutcome } from '../deltas/service.js';
import { EntityResolver } from '../entities/resolve.js';
import { BuiltinExtractor } from '../extractor/builtin.js';
import { invalid } from '../errors/catalogue.js';
import { loadShape } from '../shapes/store.js';
import { tenantToken } from '../db/tenant.js';
import { GENERAL_SHAPE_ID } from '../shapes/types.js';

/** What this service uses: the graph only, not the HTTP dependency bag (src/http/deps.ts). */
type Deps = { graph: Graph };

export { GENERAL_SHAPE_ID };

export interface SubmissionInput {
  kind: string;
  content?: string;
  payload?: Record<string, unknown>;
  shape_id?: string;
}

const extractor = new BuiltinExtractor();

/** Route delta: the submission and the entities named in its content, staged (and applied) as one delta. */
export async function submitToDelta(
  deps: Deps,
  actor: Actor,
  input: SubmissionInput,
  apply: boolean,
): Promise<WriteOutcome & { submissionId: string; entityIds: string[] }> {
  let submissionId = '';
  let entityIds: string[] = [];
  const shapeId = input.shape_id ?? GENERAL_SHAPE_ID;
  const outcome = await writeGoverned(
    deps.graph,
    async (tx) => {
      const shape = await loadShape(tx, shapeId, actor.projectId);
      if (!shape) throw invalid('/body/shape_id', `no shape ${shapeId} is visible to this project`);
      const draft = new DeltaDraft('submission', `submission: ${input.kind}`);
      submissionId = draft.createNode(['Submission'], {
        kind: input.kind,
        content: input.content ?? null,
        route: 'delta',
        shape_id: shapeId,
        tenant: tenantToken(actor.projectId),
        ...(input.payload ? payloadProperties(input.payload) : {}),
      });
      // Types the engine owns (the memory shape declares Memory) are never staged as entity types.
      const found = input.content
        ? (await extractor.extract(input.content, shape, { effort: 'agentic' })).entities.filter(
            (e) => !isReservedLabel(e.type),
          )
        : [];
      // Entities the submission's shape typed are made through it: preflight validates them against it.
      const resolver = new EntityResolver(tx, actor.projectId, draft, shapeId);
      entityIds = [
        ...new Set(
          await resolver.resolve(found.map((e) => ({ ref: { name: e.name, type: e.type }, field: '/body/content' }))),
        ),
      ];
      for (const entityId of entityIds) draft.createRelationship(submissionId, 'MENTIONS', entityId);
      return draft;
    },
    actor,
    apply,
  );
  return { ...outcome, submissionId, entityIds };
}
