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
export function inputSchemaOf(route: RouteSpec): JsonSchema {
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
  return { type: 'object', properties, ...(required.size > 0 ? { required: [...required] } : {}) };
}
