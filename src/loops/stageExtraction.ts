// One graph_extraction iteration: extract typed entities and relationships from the sources with
// each shape, keep those that pass validation (stricter for agentic_plus), resolve them against
// committed entities (same type and normalized name), and stage what is new into the loop's delta
// with deterministic ids, all in one write transaction, so a retried attempt stages nothing twice.
import type { Graph } from '../db/graph.js';
import { tenantToken } from '../db/tenant.js';
import { DeltaDraft, isReservedLabel } from '../deltas/draft.js';
import { stageChanges } from '../deltas/service.js';
import { identityKey } from '../entities/identity.js';
import type { ExtractionResult, Extractor } from '../extractor/types.js';
import { round4, scoreExtraction } from '../extractor/quality.js';
import type { ShapeDef } from '../shapes/types.js';
import { deterministicId } from './ids.js';
import { deltaTotals, stagedIds } from './store.js';
import type { Checkpoint, LoopInput } from './types.js';
import { entitiesByNormalizedNames } from '../entities/store.js';

export interface SourceText {
  id: string;
  text: string;
}

/** Confidence below which an extraction is rejected; agentic_plus holds a stricter bar. */
export const MIN_CONFIDENCE = { agentic: 0.5, agentic_plus: 0.65 } as const;

export type EntityValidator = (shape: ShapeDef, label: string, properties: Record<string, unknown>) => string[];

interface Extracted {
  sourceId: string;
  shape: ShapeDef;
  result: ExtractionResult;
}

export async function extractIteration(
  extractor: Extractor,
  sources: SourceText[],
  shapes: ShapeDef[],
  input: LoopInput,
  iteration: number,
  heartbeat: () => void,
): Promise<Extracted[]> {
  const out: Extracted[] = [];
  for (const source of sources) {
    for (const shape of shapes) {
      heartbeat();
      const result = await extractor.extract(source.text, shape, {
        effort: input.effort,
        pass: iteration,
        onProgress: heartbeat,
      });
      out.push({ sourceId: source.id, shape, result });
    }
  }
  return out;
}

/**
 * Quality of the iteration: each term of the extractions' documented score (extraction/quality.ts)
 * weighted by its source's length, with conformance taken over what this iteration could stage:
 * the share of extracted entities and relationships that passed validation and the confidence
 * bar (`rejected` counts the others), if lower. quality is the mean of the terms. Sources with
 * nothing to extract score 1, so such a loop finishes after one iteration.
 */
export function iterationQuality(
  extracted: Extracted[],
  rejected = 0,
): { quality: number; components: Record<string, number> } {
  let weight = 0;
  let items = 0;
  const sums: Record<string, number> = {};
  const weights: Record<string, number> = {};
  for (const { result, shape } of extracted) {
    const w = Math.max(1, result.stats.characters);
    weight += w;
    items += result.entities.length + result.relationships.length;
    for (const [k, v] of Object.entries(scoreExtraction(result, shape).components)) {
      sums[k] = (sums[k] ?? 0) + v * w;
      weights[k] = (weights[k] ?? 0) + w;
    }
  }
  if (weight === 0) return { quality: 1, components: {} };
  const components: Record<string, number> = {};
  for (const [k, v] of Object.entries(sums)) components[k] = round4(v / (weights[k] ?? 1));
  const accepted = items > 0 ? Math.max(0, 1 - rejected / items) : 1;
  components.conformance = round4(Math.min(components.conformance ?? 1, accepted));
  const terms = Object.values(components);
  return { quality: round4(terms.reduce((a, b) => a + b, 0) / terms.length), components };
}

type MergedEntity = {
  type: string;
  name: string;
  normalized: string;
  shapeId: string;
  confidence: number;
  sources: Set<string>;
};
type MergedRelationship = { type: string; from: string; to: string; evidence: string; confidence: number };

/** What an iteration may stage: entities and relationships merged over sources and shapes, and how many refused. */
export interface MergedExtraction {
  /** By `type|normalized name`. */
  entities: Map<string, MergedEntity>;
  /** By `type|from|to` (entity keys). */
  relationships: Map<string, MergedRelationship>;
  rejected: number;
}

/**
 * Keeps the valid entities once per (type, normalized name), remembering which sources mention them, and the
 * relationships between kept entities; what falls below the confidence bar or fails validation is counted as
 * rejected. Pure.
 */
export function mergeExtractions(
  extracted: Extracted[],
  minConfidence: number,
  validate: EntityValidator,
): MergedExtraction {
  let rejected = 0;
  const entities = new Map<string, MergedEntity>();
  const keyToEntity = new Map<string, string>();
  for (const { sourceId, shape, result } of extracted) {
    for (const e of result.entities) {
      const problems = validate(shape, e.type, { name: e.name, ...e.properties });
      // A shape may declare an engine label (the memory shape's Memory): never staged as an entity type.
      if (e.confidence < minConfidence || problems.length > 0 || isReservedLabel(e.type)) {
        rejected += 1;
        continue;
      }
      const id = `${e.type}|${e.normalized_name}`;
      keyToEntity.set(`${sourceId}|${shape.id}|${e.key}`, id);
      const known = entities.get(id);
      if (known) {
        known.sources.add(sourceId);
        known.confidence = Math.max(known.confidence, e.confidence);
      } else {
        entities.set(id, {
          type: e.type,
          name: e.name,
          normalized: e.normalized_name,
          shapeId: shape.id,
          confidence: e.confidence,
          sources: new Set([sourceId]),
        });
      }
    }
  }
  const relationships = new Map<string, MergedRelationship>();
  for (const { sourceId, shape, result } of extracted) {
    for (const r of result.relationships) {
      const from = keyToEntity.get(`${sourceId}|${shape.id}|${r.from_key}`);
      const to = keyToEntity.get(`${sourceId}|${shape.id}|${r.to_key}`);
      if (!from || !to || r.confidence < minConfidence) {
        rejected += 1;
        continue;
      }
      const key = `${r.type}|${from}|${to}`;
      if (!relationships.has(key))
        relationships.set(key, {
          type: r.type,
          from,
          to,
          evidence: r.evidence.slice(0, 1000),
          confidence: r.confidence,
        });
    }
  }
  return { entities, relationships, rejected };
}

interface IterationIds {
  nodeIds: Map<string, string>;
  relIds: Map<string, string>;
  provenance: { id: string; entity: string; source: string }[];
}

/** The ids an iteration stages under: deterministic per loop, or the committed entity's. Pure. */
function iterationIds(loopId: string, merged: MergedExtraction, committed: Map<string, string>): IterationIds {
  const nodeIds = new Map<string, string>();
  for (const [key] of merged.entities) nodeIds.set(key, committed.get(key) ?? deterministicId(loopId, 'entity', key));
  const relIds = new Map<string, string>();
  for (const [key, r] of merged.relationships)
    relIds.set(key, deterministicId(loopId, 'rel', r.type, nodeIds.get(r.from)!, nodeIds.get(r.to)!));
  const provenance: IterationIds['provenance'] = [];
  for (const [key, e] of merged.entities) {
    for (const source of e.sources)
      provenance.push({ id: deterministicId(loopId, 'from', key, source), entity: nodeIds.get(key)!, source });
  }
  return { nodeIds, relIds, provenance };
}

/** The iteration's changes: what is neither committed nor already staged by an earlier attempt. Pure. */
function draftIteration(
  input: LoopInput,
  iteration: number,
  merged: MergedExtraction,
  ids: IterationIds,
  committed: Map<string, string>,
  existing: Set<string>,
): { draft: DeltaDraft; entitiesNew: number; relationshipsNew: number } {
  const { nodeIds, relIds, provenance } = ids;
  const draft = new DeltaDraft('loop', `graph_extraction iteration ${iteration}`);
  let entitiesNew = 0;
  for (const [key, e] of merged.entities) {
    const id = nodeIds.get(key)!;
    if (committed.has(key) || existing.has(id)) continue;
    draft.createNode(
      ['Entity', e.type],
      {
        name: e.name,
        normalized_name: e.normalized,
        type: e.type,
        shape_id: e.shapeId,
        tenant: tenantToken(input.projectId),
        confidence: e.confidence,
        extracted_by_loop: input.loopId,
        loop_iteration: iteration,
      },
      { id, identityKey: identityKey(input.projectId, e.type, e.name) },
    );
    entitiesNew += 1;
  }
  let relationshipsNew = 0;
  for (const [key, r] of merged.relationships) {
    const id = relIds.get(key)!;
    if (existing.has(id)) continue;
    draft.createRelationship(
      nodeIds.get(r.from)!,
      r.type,
      nodeIds.get(r.to)!,
      { confidence: r.confidence, evidence: r.evidence, loop_id: input.loopId, loop_iteration: iteration },
      { id },
    );
    relationshipsNew += 1;
  }
  for (const p of provenance) {
    if (existing.has(p.id)) continue;
    draft.createRelationship(
      p.entity,
      'EXTRACTED_FROM',
      p.source,
      { loop_id: input.loopId, loop_iteration: iteration },
      { id: p.id },
    );
  }
  return { draft, entitiesNew, relationshipsNew };
}

export async function stageIteration(
  graph: Graph,
  input: LoopInput,
  iteration: number,
  extracted: Extracted[],
  validate: EntityValidator,
): Promise<Omit<Checkpoint, 'quality' | 'quality_components'>> {
  const merged = mergeExtractions(extracted, MIN_CONFIDENCE[input.effort], validate);
  const { entities } = merged;
  const now = new Date().toISOString();
  return graph.write(
    async (tx) => {
      const names = [...new Set([...entities.values()].map((e) => e.normalized))];
      const committed = new Map<string, string>();
      for (const entity of await entitiesByNormalizedNames(tx, input.projectId, names)) {
        // Same type and normalized name: the same entity (the identity key is unique per type).
        const key = `${entity.type}|${entity.name}`;
        if (entities.has(key)) committed.set(key, entity.id);
      }
      const ids = iterationIds(input.loopId, merged, committed);
      const candidates = [...ids.nodeIds.values(), ...ids.relIds.values(), ...ids.provenance.map((p) => p.id)];
      const existing = await stagedIds(tx, input.deltaId, candidates);
      const { draft, entitiesNew, relationshipsNew } = draftIteration(
        input,
        iteration,
        merged,
        ids,
        committed,
        existing,
      );
      if (draft.size > 0) await stageChanges(tx, draft, input.deltaId, input.projectId, now);
      const totals = await deltaTotals(tx, input.deltaId);
      const resolved = [...entities.keys()].filter((k) => committed.has(k)).length;
      return {
        iteration,
        entities_staged: totals.entities,
        relationships_staged: totals.relationships,
        entities_new: entitiesNew,
        relationships_new: relationshipsNew,
        resolved_to_existing: resolved,
        rejected: merged.rejected,
        characters: extracted.reduce((n, x) => n + x.result.stats.characters, 0),
        changed:
          entitiesNew + relationshipsNew === 0
            ? 'nothing new'
            : `staged ${entitiesNew} new entities and ${relationshipsNew} new relationships`,
      };
    },
    { purpose: `loop:${input.loopId}:iteration:${iteration}` },
  );
}
