// A delta being built in memory by a write path (memories, submissions, documents, loops) before it
// is staged in one transaction. Ids are given here so callers can link what they create.
import crypto from 'node:crypto';
import { toNeoProps, type PropValue } from './props.js';

const LABEL = /^[A-Z][A-Za-z0-9_]{0,63}$/;
const REL_TYPE = /^[A-Z][A-Z0-9_]{0,63}$/;
/** Labels the engine owns; domain code may not set them. */
export const RESERVED_LABELS = new Set(['Knowledge', 'Pending', 'Delta', 'Change', 'TenantProject', 'TenantOrg', 'ApiKey', 'CreditAccount', 'CreditEntry', 'IdempotencyRecord', 'Loop', 'RelationshipSnapshot', 'Connection', 'ConnectionSecret', 'Sync', 'SyncPage']);
/** Engine labels an engine area may stage through createEngineNode (a connection is reviewed like any write). */
export const ENGINE_STAGED_LABELS = new Set(['Connection']);

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
  private seq = 0;

  constructor(readonly origin: string, public summary: string, private readonly ids: () => string = () => crypto.randomUUID()) {}

  get size(): number {
    return this.seq;
  }

  createNode(labels: string[], props: Record<string, PropValue>, options: { id?: string; identityKey?: string } = {}): string {
    return this.createNodeRecord(labels, props, options).id;
  }

  createNodeRecord(labels: string[], props: Record<string, PropValue>, options: { id?: string; identityKey?: string } = {}): NodeDraft {
    for (const label of labels) {
      if (!LABEL.test(label) || RESERVED_LABELS.has(label)) throw new Error(`label ${label} may not be staged`);
    }
    const id = options.id ?? this.ids();
    const node: NodeDraft = { id, changeId: this.ids(), labels, props: toNeoProps(props), identityKey: options.identityKey ?? null, seq: this.seq++ };
    this.nodes.push(node);
    return node;
  }

  /** For engine areas only: stages a node whose label the engine owns (ENGINE_STAGED_LABELS); domain input never reaches this. */
  createEngineNode(labels: string[], props: Record<string, PropValue>, options: { id?: string } = {}): string {
    for (const label of labels) {
      if (!LABEL.test(label) || (RESERVED_LABELS.has(label) && !ENGINE_STAGED_LABELS.has(label))) throw new Error(`label ${label} may not be staged`);
    }
    const id = options.id ?? this.ids();
    this.nodes.push({ id, changeId: this.ids(), labels, props: toNeoProps(props), identityKey: null, seq: this.seq++ });
    return id;
  }

  createRelationship(from: string, type: string, to: string, props: Record<string, PropValue> = {}, options: { id?: string } = {}): string {
    if (!REL_TYPE.test(type)) throw new Error(`relationship type ${type} may not be staged`);
    const id = options.id ?? this.ids();
    this.rels.push({ id, changeId: this.ids(), type, from, to, props: toNeoProps(props), seq: this.seq++ });
    return id;
  }

  updateNode(nodeId: string, set: Record<string, PropValue>): void {
    this.updates.push({ changeId: this.ids(), nodeId, set: toNeoProps(set, true), seq: this.seq++ });
  }

  deleteNode(nodeId: string): void {
    this.deletes.push({ changeId: this.ids(), nodeId, seq: this.seq++ });
  }
}
