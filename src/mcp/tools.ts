// The MCP tool catalogue: each tool is one HTTP route, named snake_case, with the input schema
// assembled from that route's own body/query/params schemas (one source, no drift).
import type { JsonSchema, RouteSpec } from '../http/route.js';

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface ToolDef {
  name: string;
  operationId: string;
  description: string;
  /** A governed write: answered with delta id and applied|staged. */
  write: boolean;
  annotations: ToolAnnotations;
  /** Arguments sent on every call and left out of the input schema (start_extraction: kind). */
  fixed?: Record<string, unknown>;
  /** Arguments required beyond what the route requires (neighbours: node_id). */
  requires?: string[];
  /** Arguments of the tool beyond the route's (loop_status: events), read by the tool itself. */
  extra?: Record<string, JsonSchema>;
  /** How the answer's text reads: the governed-write line, the loop start line, or the JSON. */
  answer?: 'write' | 'loop' | 'json';
}

const read: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
const write: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};
const destroy: ToolAnnotations = { ...write, destructiveHint: true };

export const TOOLS: readonly ToolDef[] = [
  {
    name: 'remember',
    operationId: 'createMemory',
    write: true,
    annotations: write,
    description:
      'Store a memory (content) or a batch (memories) in the governed knowledge graph. Writes go through a ' +
      'reviewable delta: the answer says whether it was applied or staged for review.',
  },
  {
    name: 'recall',
    operationId: 'searchMemories',
    write: false,
    annotations: read,
    description: 'Search stored memories for a query; call before answering from memory. Staged writes are not found.',
  },
  {
    name: 'get_memory',
    operationId: 'getMemory',
    write: false,
    annotations: read,
    description: 'Read one memory by id.',
  },
  {
    name: 'memory_history',
    operationId: 'memoryHistory',
    write: false,
    annotations: read,
    description: 'List the deltas that created and corrected one memory, newest first.',
  },
  {
    name: 'correct_memory',
    operationId: 'correctMemory',
    write: true,
    annotations: write,
    description: 'Correct fields of a memory through a governed delta (reviewable and revertible).',
  },
  {
    name: 'forget_memory',
    operationId: 'deleteMemory',
    write: true,
    annotations: destroy,
    description: 'Retract a memory through a governed delta; it stops being recalled once applied.',
  },
  {
    name: 'supersede_memory',
    operationId: 'supersedeMemory',
    write: true,
    annotations: write,
    description: 'Replace a memory with a new one that supersedes it (the old stays in history).',
  },
  {
    name: 'close_memory',
    operationId: 'closeMemory',
    write: true,
    annotations: write,
    description:
      'End a fact, decision or preference at a moment (valid_to) through a governed delta: it stays in history ' +
      'and in reads as of earlier moments, and stops being current.',
  },
  {
    name: 'brief',
    operationId: 'briefContext',
    write: false,
    annotations: read,
    description: 'Compile a context brief (markdown plus refs) of a slice or inline scope within a token budget.',
  },
  {
    name: 'synthesize',
    operationId: 'synthesizeMemories',
    write: false,
    annotations: read,
    description: 'Write a briefing on a subject from the memories that match it.',
  },
  { name: 'ontology', operationId: 'getOntology', write: false, annotations: read, description: 'Read the ontology.' },
  {
    name: 'search_graph',
    operationId: 'search',
    write: false,
    annotations: read,
    description: 'Search every node of the graph (memories, documents, entities).',
  },
  {
    name: 'get_node',
    operationId: 'getGraphNode',
    write: false,
    annotations: read,
    description:
      'Read one node of the graph (any label: Entity, Memory, Document, Chunk) with its neighbours to depth 1 or 2 ' +
      'and the relationships among them. Use after search_graph to see what a node is connected to.',
  },
  {
    name: 'neighbours',
    operationId: 'listGraphEdges',
    write: false,
    annotations: read,
    requires: ['node_id'],
    description:
      "A page of one node's relationships (node_id), optionally of one type and direction (out: the node is the " +
      'source, in: the target); next_cursor pages on. Use to walk the graph one hop at a time.',
  },
  {
    name: 'capture',
    operationId: 'createSubmission',
    write: true,
    annotations: write,
    description:
      'Capture a note, event, form or payload (kind with content or payload) through a governed delta, or ' +
      '(route document / extraction) as a document or an extraction. Use for raw material to be structured; ' +
      'use remember for a single fact to recall later.',
  },
  {
    name: 'start_extraction',
    operationId: 'startLoop',
    write: true,
    annotations: write,
    fixed: { kind: 'graph_extraction' },
    answer: 'loop',
    description:
      'Start a graph_extraction loop over documents (context.source_ids) with shapes (schema.shape_ids): it ' +
      'extracts entities and relationships into one staged delta for review (never applied by itself). Spends ' +
      'credits. Follow it with loop_status.',
  },
  {
    name: 'loop_status',
    operationId: 'getLoop',
    write: false,
    annotations: read,
    extra: {
      events: {
        type: 'integer',
        minimum: 0,
        maximum: 100,
        default: 10,
        description: 'How many of the latest events to include (0: none).',
      },
    },
    description:
      "A loop's status (queued, running, completed, failed, cancelled; iteration, quality, its staged delta_id) " +
      'with its latest events.',
  },
  {
    name: 'list_pending_deltas',
    operationId: 'listDeltas',
    write: false,
    annotations: read,
    description: 'List deltas (filter status=staged for those awaiting review).',
  },
  {
    name: 'get_delta',
    operationId: 'getDelta',
    write: false,
    annotations: read,
    description: 'Read one delta with its changes.',
  },
  {
    name: 'audit_delta',
    operationId: 'auditDelta',
    write: false,
    annotations: read,
    description:
      'Preflight audit of a staged delta (delta_id): would applying it degrade the graph? Answers the verdict ' +
      '(SafeToAct or not) and every finding. Read-only; nothing is written.',
  },
  {
    name: 'apply_delta',
    operationId: 'applyDelta',
    write: true,
    annotations: write,
    description: 'Apply a staged delta (needs deltas:apply); its changes become visible.',
  },
  {
    name: 'reject_delta',
    operationId: 'rejectDelta',
    write: true,
    annotations: destroy,
    description: 'Reject a staged delta (needs deltas:apply); its changes are discarded.',
  },
  {
    name: 'revert_delta',
    operationId: 'revertDelta',
    write: true,
    annotations: destroy,
    description: 'Revert an applied delta through a new delta (needs deltas:apply).',
  },
];

/** Properties of a JSON Schema object (empty for anything else). */
function propsOf(schema: JsonSchema | undefined): { properties: Record<string, JsonSchema>; required: string[] } {
  const properties = (schema?.properties ?? {}) as Record<string, JsonSchema>;
  const required = Array.isArray(schema?.required) ? (schema.required as string[]) : [];
  return { properties, required };
}

/** One input schema from the route's params, query and body schemas (the route validates the same). */
export function inputSchemaOf(route: RouteSpec, def?: ToolDef): JsonSchema {
  const parts = [route.params, route.query, route.body].map(propsOf);
  const properties: Record<string, JsonSchema> = {};
  const required = new Set<string>();
  for (const part of parts) {
    Object.assign(properties, part.properties);
    part.required.forEach((r) => required.add(r));
  }
  for (const name of (route.path.match(/:([a-z_]+)/g) ?? []).map((p) => p.slice(1))) {
    properties[name] ??= { type: 'string', minLength: 1 };
    required.add(name);
  }
  for (const name of Object.keys(def?.fixed ?? {})) {
    delete properties[name];
    required.delete(name);
  }
  for (const name of def?.requires ?? []) required.add(name);
  Object.assign(properties, def?.extra ?? {});
  return { type: 'object', properties, ...(required.size > 0 ? { required: [...required] } : {}) };
}
