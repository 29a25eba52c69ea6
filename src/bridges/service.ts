// Bridges: propose (read-only), create (the proposed shape and its mapping in one delta of origin
// "bridge"), publish a version (new shape version SUPERSEDES the old, mappings replaced, with a
// diff), read and list, and map records into entities through a governed write.
import type { Actor } from '../auth/actor.js';
import type { Graph } from '../db/graph.js';
import { DeltaDraft } from '../deltas/draft.js';
import { writeGoverned, type WriteOutcome } from '../deltas/service.js';
import { fetchUrl } from '../documents/ingest/fetchUrl.js';
import { ApiError, conflict, notFound } from '../errors/catalogue.js';
import { checkDefinition, type Definition } from '../shapes/definition.js';
import { loadShape, newerShapeVersion, shapeHoldingName, stageShape, type StagedShape } from '../shapes/store.js';
import { planMap, type MapContext, type MapPlan } from './map.js';
import { diffDefinitions, type DefinitionDiff } from './diff.js';
import {
  mappingFromProps,
  type MappingProps,
  stageBridge,
  stageBridgeVersion,
  type BridgeNodeInput,
  type MappingRecord,
  type BridgeProps,
} from './store.js';
import type { ConfigDeps, GraphDeps } from '../shared/deps.js';
import { isPresent } from '../graph/views.js';
import {
  propose,
  proposalToDefinition,
  sourceDigest,
  type Proposal,
  type ProposeOptions,
  type SourceFormat,
  type Unmapped,
} from './translate/index.js';

/** A graph and the fetch settings (the SSRF guard) of the configuration. */
export type BridgeDeps = GraphDeps & ConfigDeps<'fetch'>;

export interface SourceRequest {
  format: SourceFormat;
  document?: unknown;
  url?: string;
}

export interface Proposed {
  proposal: Proposal;
  unmapped: Unmapped[];
  digest: string;
  url: string | null;
}

/** Reads the source (inline, or fetched through the SSRF guard) and proposes; touches no graph. */
export async function proposeFrom(
  deps: BridgeDeps,
  source: SourceRequest,
  options: ProposeOptions,
  at = '/body/source',
): Promise<Proposed> {
  let document = source.document;
  let field = `${at}/document`;
  if (source.url !== undefined) {
    const fetched = await fetchUrl(source.url, deps.config.fetch);
    document = fetched.body.toString('utf8');
    field = `${at}/url`;
  }
  const result = propose({ format: source.format, document, field }, options);
  return { ...result, digest: sourceDigest(document), url: source.url ?? null };
}

export interface BridgeRecord {
  bridge: BridgeProps;
  mappings: MappingRecord[];
}

export async function loadBridge(graph: Graph, projectId: string, id: string): Promise<BridgeRecord> {
  const row = await graph.read((tx) =>
    tx.one<{ bridge: BridgeProps; mappings: MappingProps[] | null }>('bridges/get', {
      id,
      project_id: projectId,
    }),
  );
  if (!row || !isPresent(row.bridge)) throw notFound('bridge', id);
  return { bridge: row.bridge, mappings: (row.mappings ?? []).map(mappingFromProps) };
}

function shapeNameOf(bridgeName: string): string {
  return `bridge-${bridgeName}`;
}

function definitionOf(proposed: Proposal, name: string): Definition {
  return checkDefinition(proposalToDefinition(proposed, `Proposed by bridge ${name}`), '/body/proposal');
}

export interface BridgeWrite extends WriteOutcome {
  bridgeId: string;
  shape: StagedShape;
  definition: Definition;
}

/** The bridge node's fields for a version: its proposed shape, source, options and what stayed unmapped. */
function bridgeNode(
  actor: Actor,
  name: string,
  version: number,
  shapeId: string,
  proposed: Proposed,
  options: ProposeOptions,
): BridgeNodeInput {
  return {
    projectId: actor.projectId,
    name,
    version,
    shapeId,
    source: { format: proposed.proposal.format, digest: proposed.digest, url: proposed.url },
    options,
    unmapped: proposed.unmapped,
    proposal: proposed.proposal,
  };
}

export async function createBridge(
  deps: BridgeDeps,
  actor: Actor,
  name: string,
  proposed: Proposed,
  options: ProposeOptions,
  apply: boolean,
): Promise<BridgeWrite> {
  const taken = await deps.graph.read(async (tx) => ({
    bridge: await tx.one<Pick<BridgeProps, 'id' | 'pending' | 'delta_id'>>('bridges/name_taken', {
      name_key: `${actor.projectId}|${name}`,
    }),
    shape: await shapeHoldingName(tx, actor.projectId, shapeNameOf(name)),
  }));
  if (taken.bridge) {
    const staged = taken.bridge.pending ? ` (staged in delta ${taken.bridge.delta_id})` : '';
    throw new ApiError(
      'conflict',
      `A bridge named ${name} exists${staged}; ` +
        `publish a version with POST /v1/bridges/${taken.bridge.id}/versions.`,
      {
        fields: [{ field: '/body/name', reason: 'is taken' }],
        bridge_id: taken.bridge.id,
      },
    );
  }
  if (taken.shape)
    throw new ApiError(
      'conflict',
      `The shape name ${shapeNameOf(name)} is taken in this project; choose another bridge name.`,
      { fields: [{ field: '/body/name', reason: 'its shape name is taken' }] },
    );
  const definition = definitionOf(proposed.proposal, name);
  let bridgeId = '';
  let shape: StagedShape | undefined;
  const outcome = await writeGoverned(
    deps.graph,
    () => {
      const draft = new DeltaDraft('bridge', `bridge: ${name} v1 (${proposed.proposal.entity_types.length} types)`);
      shape = stageShape(draft, actor.projectId, shapeNameOf(name), 1, definition, null);
      bridgeId = stageBridge(draft, bridgeNode(actor, name, 1, shape.id, proposed, options));
      return Promise.resolve(draft);
    },
    actor,
    apply,
  );
  return { ...outcome, bridgeId, shape: shape!, definition };
}

/** The committed bridge, or 404; a bridge still staged is a 409 naming its delta. */
async function committedBridge(graph: Graph, actor: Actor, id: string, action: string): Promise<BridgeRecord> {
  const record = await loadBridge(graph, actor.projectId, id);
  if (record.bridge.pending === true) {
    throw conflict(`Bridge ${id} is staged in delta ${record.bridge.delta_id}; apply it before it can ${action}.`, {
      bridge_id: id,
      delta_id: record.bridge.delta_id,
    });
  }
  return record;
}

export async function versionBridge(
  deps: BridgeDeps,
  actor: Actor,
  id: string,
  proposed: Proposed,
  options: ProposeOptions,
  apply: boolean,
): Promise<BridgeWrite & { diff: DefinitionDiff; version: number }> {
  const current = await committedBridge(deps.graph, actor, id, 'be given a new version');
  const name = current.bridge.name;
  const previousShape = await loadShape(deps.graph, current.bridge.shape_id, actor.projectId);
  if (!previousShape) throw conflict(`The shape of bridge ${id} is not committed.`, { bridge_id: id });
  const newer = await deps.graph.read((tx) =>
    newerShapeVersion(tx, actor.projectId, previousShape.name, previousShape.version),
  );
  if (newer)
    throw conflict(
      `Shape ${previousShape.name} already has version ${String(newer.version)}` +
        `${newer.pending ? ` staged in delta ${String(newer.delta_id)}` : ''}; apply or reject it first.`,
      { shape_id: newer.id },
    );
  const definition = definitionOf(proposed.proposal, name);
  const version = (current.bridge.version ?? 1) + 1;
  let shape: StagedShape | undefined;
  const outcome = await writeGoverned(
    deps.graph,
    () => {
      const draft = new DeltaDraft('bridge', `bridge: ${name} v${version}`);
      shape = stageShape(
        draft,
        actor.projectId,
        previousShape.name,
        previousShape.version + 1,
        definition,
        previousShape.id,
      );
      stageBridgeVersion(draft, id, bridgeNode(actor, name, version, shape.id, proposed, options));
      return Promise.resolve(draft);
    },
    actor,
    apply,
  );
  return {
    ...outcome,
    bridgeId: id,
    shape: shape!,
    definition,
    version,
    diff: diffDefinitions(previousShape, definition),
  };
}

/** What map needs of a committed bridge: its shape and the mappings of its version. */
async function mapContext(graph: Graph, actor: Actor, id: string): Promise<MapContext> {
  const current = await committedBridge(graph, actor, id, 'map records');
  return {
    projectId: actor.projectId,
    bridgeId: id,
    bridgeName: current.bridge.name,
    shapeId: current.bridge.shape_id,
    mappings: current.mappings,
  };
}

export interface MapResult extends WriteOutcome {
  plan: Pick<MapPlan, 'counts' | 'unresolved' | 'entity_ids'>;
}

export async function mapRecords(
  deps: BridgeDeps,
  actor: Actor,
  id: string,
  recordType: string,
  records: Record<string, unknown>[],
  apply: boolean,
): Promise<MapResult> {
  const ctx = await mapContext(deps.graph, actor, id);
  let plan: MapPlan | undefined;
  const outcome = await writeGoverned(
    deps.graph,
    async (tx) => {
      plan = await planMap(tx, ctx, recordType, records);
      return plan.draft;
    },
    actor,
    apply,
  );
  return {
    ...outcome,
    plan: plan ?? { counts: { created: 0, updated: 0, unchanged: 0 }, unresolved: [], entity_ids: [] },
  };
}

/** What a map would do, read-only (dry_run). */
export async function planMapOnly(
  deps: BridgeDeps,
  actor: Actor,
  id: string,
  recordType: string,
  records: Record<string, unknown>[],
): Promise<MapPlan> {
  const ctx = await mapContext(deps.graph, actor, id);
  return deps.graph.read((tx) => planMap(tx, ctx, recordType, records));
}
