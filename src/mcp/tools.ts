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
      'Store what should be recalled later: one memory (content, with kind, subject, predicate and object for a ' +
      'fact; episode names the conversation, session or ticket it came from and observed_at when it was said, ' +
      'which recall uses) or a batch (memories, 1 to 100). Answers the governed-write result: the delta id and ' +
      'whether it was applied or staged for review (staged memories are not recalled until applied). Use it for a ' +
      'statement worth keeping; use capture for raw notes or payloads to structure, correct_memory to change a ' +
      'stored one.',
  },
  {
    name: 'recall',
    operationId: 'searchMemories',
    write: false,
    annotations: read,
    description:
      'Find the stored memories that answer a question, ranked by words and meaning together; call it before ' +
      'answering from memory. Answers the memory nodes in rank order, each with why it matched (match: ranks, ' +
      'similarity, score), and the edges to their subjects and objects. Only committed memories are found. For ' +
      'documents and entities as well use search_graph; for a prose answer from memories use synthesize.',
  },
  {
    name: 'get_memory',
    operationId: 'getMemory',
    write: false,
    annotations: read,
    description:
      'Read one committed memory by its id, in full: content, kind, subject, object, validity and dates. Use it ' +
      'when you already hold an id (from recall, a delta or a finding); to find memories by what they say use ' +
      'recall, and for how a memory changed over time use memory_history.',
  },
  {
    name: 'memory_history',
    operationId: 'memoryHistory',
    write: false,
    annotations: read,
    description:
      'The history of one memory: every delta that created, corrected, linked or deleted it, oldest first, each ' +
      'with the operations it made on the memory. Works for a deleted memory too. Use it to see who changed a ' +
      'memory and when, or to pick a delta to revert; get_memory reads only its present state.',
  },
  {
    name: 'correct_memory',
    operationId: 'correctMemory',
    write: true,
    annotations: write,
    description:
      'Correct fields of a stored memory (content, kind, subject, object, validity ...) through a governed delta, ' +
      'reviewable and revertible. Answers the governed-write result (applied or staged). Use it when the memory ' +
      'was wrong; when the world changed use close_memory or supersede_memory, which keep the old fact in history.',
  },
  {
    name: 'forget_memory',
    operationId: 'deleteMemory',
    write: true,
    annotations: destroy,
    description:
      'Retract a memory through a governed delta: once applied it is no longer recalled (its history stays and ' +
      'the delta can be reverted). Answers the governed-write result. Use it for a memory that should never have ' +
      'been stored; for a fact that stopped being true use close_memory instead.',
  },
  {
    name: 'supersede_memory',
    operationId: 'supersedeMemory',
    write: true,
    annotations: write,
    description:
      'Record that another memory (by: a committed memory id, or one created in the same call) supersedes this ' +
      'one, through a governed delta: the old memory stays readable in history and, for a fact, stops holding when ' +
      'the new one starts. Answers the governed-write result. Use it to settle a contradiction between two ' +
      'memories; correct_memory edits one memory in place.',
  },
  {
    name: 'close_memory',
    operationId: 'closeMemory',
    write: true,
    annotations: write,
    description:
      'End a fact, decision or preference at a moment (valid_to) through a governed delta: it stays in history ' +
      'and in reads as of earlier moments, and stops being current. Answers the governed-write result. Use it ' +
      'when something stopped holding (a change of employer); forget_memory removes a memory that was wrong.',
  },
  {
    name: 'brief',
    operationId: 'briefContext',
    write: false,
    annotations: read,
    description:
      'Compile a context brief of a saved slice or an inline scope (memories, entities, document chunks) within ' +
      'a token budget: answers a prose briefing in markdown with its evidence refs, and the pack it was written ' +
      'from. Use it to prepare context for a task across planes; synthesize answers one question from memories ' +
      'only, recall lists matching memories without prose.',
  },
  {
    name: 'synthesize',
    operationId: 'synthesizeMemories',
    write: false,
    annotations: read,
    description:
      'Write a prose briefing that answers one query from the memories that match it: answers the text (and ' +
      'markdown) with the ids of the memories used as evidence. Use it for a readable answer to a question; ' +
      'recall gives the memories themselves, brief covers documents and entities too within a token budget.',
  },
  {
    name: 'ontology',
    operationId: 'getOntology',
    write: false,
    annotations: read,
    description:
      'The types the graph may hold: every entity type (label, properties, identity) and relationship type ' +
      '(type, from, to, cardinality, one at a time or many) of the shapes this project sees, each with the ' +
      'shapes that define it. Read it before writing facts or starting an extraction, to use declared types ' +
      'and predicates; it lists types, not data (search_graph and get_node read the data).',
  },
  {
    name: 'search_graph',
    operationId: 'search',
    write: false,
    annotations: read,
    description:
      'Search every plane of the graph at once (memories, documents and their chunks, entities) by words and ' +
      'meaning: answers the matching nodes with the edges between them. Use it to find where something appears ' +
      'in the graph; recall searches memories only, and get_node reads one node you already found.',
  },
  {
    name: 'get_node',
    operationId: 'getGraphNode',
    write: false,
    annotations: read,
    description:
      'Read one node of the graph (any label: Entity, Memory, Document, Chunk) with its neighbours to depth 1 or 2 ' +
      'and the relationships among them. Use after search_graph to see what a node is connected to; neighbours ' +
      "pages through a busy node's relationships one hop at a time.",
  },
  {
    name: 'neighbours',
    operationId: 'listGraphEdges',
    write: false,
    annotations: read,
    requires: ['node_id'],
    description:
      "A page of one node's relationships (node_id), optionally of one type and direction (out: the node is the " +
      'source, in: the target); next_cursor pages on. Use to walk the graph one hop at a time, or when get_node ' +
      'shows only part of a node with many relationships.',
  },
  {
    name: 'capture',
    operationId: 'createSubmission',
    write: true,
    annotations: write,
    description:
      'Capture a note, event, form or payload (kind with content or payload) through a governed delta, or ' +
      '(route document / extraction) as a document or an extraction. Answers the governed-write result with the ' +
      'route taken and the entities the content names. Use for raw material to be structured; use remember for a ' +
      'single fact to recall later.',
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
      'extracts entities and relationships into one staged delta for review (never applied by itself). Answers ' +
      'the loop id and its delta id. Spends credits. Follow it with loop_status; for one short note use capture.',
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
      'with its latest events. Use it after start_extraction until the loop ends, then review its delta with ' +
      'get_delta and audit_delta.',
  },
  {
    name: 'list_pending_deltas',
    operationId: 'listDeltas',
    write: false,
    annotations: read,
    description:
      "A page of the project's deltas, newest first (pass status staged for those awaiting review; origin to " +
      'keep one source): each with its status, origin, summary, size and author, without its changes. Use it to ' +
      'find work to review; get_delta reads one delta with its changes.',
  },
  {
    name: 'get_delta',
    operationId: 'getDelta',
    write: false,
    annotations: read,
    description:
      'Read one delta with its changes (the nodes and relationships it creates, updates and deletes) and its ' +
      'status. Use it to see what a write, loop or sync staged before auditing or applying it; audit_delta says ' +
      'whether applying it would degrade the graph.',
  },
  {
    name: 'audit_delta',
    operationId: 'auditDelta',
    write: false,
    annotations: read,
    description:
      'Preflight audit of a staged delta (delta_id): would applying it degrade the graph? Answers the verdict ' +
      '(SafeToAct, ReviewRequired or Blocked) and every finding (duplicates, contradictions, shape violations, ' +
      'orphans ...) with the nodes it names. Read-only; nothing is written. Run it before apply_delta.',
  },
  {
    name: 'apply_delta',
    operationId: 'applyDelta',
    write: true,
    annotations: write,
    description:
      'Apply a staged delta (needs deltas:apply): its changes become committed and visible, in one transaction. ' +
      'Answers the delta, now applied. Refused when the audit finds errors, unless override_reason says why to ' +
      'apply anyway. Audit it first with audit_delta; reject_delta discards a staged delta instead.',
  },
  {
    name: 'reject_delta',
    operationId: 'rejectDelta',
    write: true,
    annotations: destroy,
    description:
      'Reject a staged delta (needs deltas:apply): its staged changes are discarded and the delta stays as a ' +
      'rejected record with the reason. Answers the delta. Use it for a staged delta that should not be applied; ' +
      'revert_delta undoes one already applied.',
  },
  {
    name: 'revert_delta',
    operationId: 'revertDelta',
    write: true,
    annotations: destroy,
    description:
      'Revert an applied delta (needs deltas:apply): what it created is removed and what it changed or deleted is ' +
      'restored. Answers the delta, now reverted; refused while later deltas depend on it (they are named). Use ' +
      'it to undo an applied change; for a staged one use reject_delta.',
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
