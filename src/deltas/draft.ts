// A delta being built in memory by a write path (memories, submissions, documents, loops) before it
// is staged in one transaction. Ids are given here so callers can link what they create.
import crypto from 'node:crypto';
import { toNeoProps, type PropValue } from './props.js';

import { invalid } from '../errors/catalogue.js';

const LABEL = /^[A-Z][A-Za-z0-9_]{0,63}$/;
const REL_TYPE = /^[A-Z][A-Z0-9_]{0,63}$/;
/** The engine's own records: never part of any delta, never a graph read's filter. */
export const RECORD_LABELS = new Set([
  'Knowledge',
  'Pending',
  'Delta',
  'Change',
  'TenantProject',
  'TenantOrg',
  'ApiKey',
  'CreditAccount',
  'CreditEntry',
  'IdempotencyRecord',
  'Loop',
  'RelationshipSnapshot',
  'CreatedSnapshot',
  'ConnectionSecret',
  'Sync',
  'SyncPage',
  'EmbeddingIndex',
  'WebhookEndpoint',
  'WebhookSecret',
  'WebhookEvent',
  'WebhookDelivery',
]);
/**
 * Every label the engine owns: the one list (its records, and the nodes it makes itself). A caller
 * (or an extractor, or a shape) may never name one as an entity type, a shape label or a filter
 * of engine records. Add new engine labels here.
 */
export const RESERVED_LABELS = new Set([
  ...RECORD_LABELS,
  'Entity',
  'Memory',
  'Shape',
  'EntityType',
  'PropertyDef',
  'RelationshipType',
  'Document',
  'Chunk',
  'Collection',
  'Submission',
  'Context',
  'Slice',
  'ContextPack',
  'Connection',
  'Bridge',
  'BridgeMapping',
  'Episode',
  'Term',
]);

/** Engine labels only the drafts of one area stage (a submission cannot forge a slice or a bridge). */
const ORIGIN_BOUND_LABELS: Readonly<Record<string, string>> = {
  Slice: 'slice',
  ContextPack: 'context',
  Connection: 'connection',
  Bridge: 'bridge',
  BridgeMapping: 'bridge',
};

export function isReservedLabel(label: string): boolean {
  return RESERVED_LABELS.has(label);
}

/**
 * A type or label a caller names (entity types of memories, submissions, extraction): 400 naming the field when it is
 * not allowed.
 */
export function checkTypeLabel(label: string, field: string): void {
  if (!LABEL.test(label)) throw invalid(field, 'must be an entity type label such as Person');
  if (RESERVED_LABELS.has(label)) throw invalid(field, `${label} is a label the service owns; name another type`);
}

export interface NodeDraft {
  id: string;
  /** The node's record within the delta (returned as delta_entity_id). */
  changeId: string;
  labels: string[];
  props: Record<string, unknown>;
  identityKey: string | null;
  seq: number;
}

export interface RelDraft {
  id: string;
  changeId: string;
  type: string;
  from: string;
  to: string;
  props: Record<string, unknown>;
  seq: number;
}

export interface UpdateDraft {
  changeId: string;
  nodeId: string;
  set: Record<string, unknown>;
  /** Labels added and removed (an entity's type is its label); revert swaps them back. */
  addLabels: string[];
  removeLabels: string[];
  seq: number;
}

/** Deletion of one committed relationship, found from its start node. */
export interface RelDeleteDraft {
  changeId: string;
  relationshipId: string;
  from: string;
  seq: number;
}

export interface DeleteDraft {
  changeId: string;
  nodeId: string;
  seq: number;
}

export class DeltaDraft {
  readonly nodes: NodeDraft[] = [];
  readonly rels: RelDraft[] = [];
  readonly updates: UpdateDraft[] = [];
  readonly deletes: DeleteDraft[] = [];
  readonly relDeletes: RelDeleteDraft[] = [];
  /** The episodes whose memories this delta adds, moves or removes: relinked when it is applied or reverted. */
  readonly episodes = new Set<string>();
  private seq = 0;

  constructor(
    readonly origin: string,
    public summary: string,
    private readonly ids: () => string = () => crypto.randomUUID(),
  ) {}

  get size(): number {
    return this.seq;
  }

  createNode(
    labels: string[],
    props: Record<string, PropValue>,
    options: { id?: string; identityKey?: string } = {},
  ): string {
    return this.createNodeRecord(labels, props, options).id;
  }

  createNodeRecord(
    labels: string[],
    props: Record<string, PropValue>,
    options: { id?: string; identityKey?: string } = {},
  ): NodeDraft {
    // The first label is the engine's choice (Memory, Document, Entity ...); any further label is a
    // type named from outside (Entity + Person) and may not be one the engine owns.
    labels.forEach((label, i) => {
      if (!LABEL.test(label) || RECORD_LABELS.has(label) || (i > 0 && RESERVED_LABELS.has(label)))
        throw new Error(`label ${label} may not be staged`);
      const owner = ORIGIN_BOUND_LABELS[label];
      if (owner !== undefined && owner !== this.origin)
        throw new Error(`label ${label} may not be staged by a ${this.origin} delta`);
    });
    const id = options.id ?? this.ids();
    const node: NodeDraft = {
      id,
      changeId: this.ids(),
      labels,
      props: toNeoProps(props),
      identityKey: options.identityKey ?? null,
      seq: this.seq++,
    };
    this.nodes.push(node);
    return node;
  }

  /**
   * For engine areas (connections): a node whose first label the engine owns and stages through a
   * delta like any reviewed write. Domain input never reaches this; record labels never pass.
   */
  createEngineNode(labels: string[], props: Record<string, PropValue>, options: { id?: string } = {}): string {
    return this.createNode(labels, props, options);
  }

  createRelationship(
    from: string,
    type: string,
    to: string,
    props: Record<string, PropValue> = {},
    options: { id?: string } = {},
  ): string {
    if (!REL_TYPE.test(type)) throw new Error(`relationship type ${type} may not be staged`);
    const id = options.id ?? this.ids();
    this.rels.push({ id, changeId: this.ids(), type, from, to, props: toNeoProps(props), seq: this.seq++ });
    return id;
  }

  updateNode(nodeId: string, set: Record<string, PropValue>, labels: { add?: string[]; remove?: string[] } = {}): void {
    const addLabels = labels.add ?? [];
    const removeLabels = labels.remove ?? [];
    for (const label of [...addLabels, ...removeLabels]) {
      if (!LABEL.test(label) || RESERVED_LABELS.has(label)) throw new Error(`label ${label} may not be changed`);
    }
    this.updates.push({
      changeId: this.ids(),
      nodeId,
      set: toNeoProps(set, true),
      addLabels,
      removeLabels,
      seq: this.seq++,
    });
  }

  deleteRelationship(relationshipId: string, from: string): void {
    this.relDeletes.push({ changeId: this.ids(), relationshipId, from, seq: this.seq++ });
  }

  /** Marks an episode whose memories this delta changes (its NEXT chain and counts follow at apply and revert). */
  touchEpisode(episodeId: string): void {
    this.episodes.add(episodeId);
  }

  deleteNode(nodeId: string): void {
    this.deletes.push({ changeId: this.ids(), nodeId, seq: this.seq++ });
  }
}
