// One 0..1 number for how well an extraction fits its shape, so loops can compare passes and
// efforts without a gold standard. It reads only the result and the shape, so it is deterministic.
import type { ShapeDef } from '../shapes/types.js';
import type { ExtractionResult } from './types.js';

/** Entities per 1,000 characters at which coverage counts as full. */
export const COVERAGE_TARGET_PER_1000_CHARS = 5;

export interface QualityComponents {
  completeness: number;
  conformance: number;
  confidence: number;
  coverage: number;
}

export interface QualityScore {
  quality: number;
  components: QualityComponents;
}

/** Quality figures are kept to 4 decimals, so they read the same in checkpoints and the UI. */
export const round4 = (n: number): number => Math.round(n * 10000) / 10000;
const present = (v: unknown): boolean => v !== undefined && v !== null && v !== '';

/**
 * quality = (completeness + conformance + confidence + coverage) / 4, every term in 0..1 and
 * everything rounded to 4 decimals:
 * - completeness: the share of entities whose type is in the shape and that have a non-empty value
 *   for every property their type lists as required (0 when there are no entities);
 * - conformance: the share of relationships whose type is in the shape and whose from_key and
 *   to_key name entities of this result with exactly the shape's from and to types (1 when there
 *   are entities but no relationships, 0 when there are neither);
 * - confidence: the mean confidence over all entities and relationships together (0 when both
 *   are empty);
 * - coverage: entities per 1,000 characters of input (stats.characters) divided by
 *   COVERAGE_TARGET_PER_1000_CHARS (5), at most 1 (0 for empty input).
 */
export function scoreExtraction(result: ExtractionResult, shape: ShapeDef): QualityScore {
  const types = new Map(shape.entity_types.map((t) => [t.label, t]));
  const rels = new Map(shape.relationship_types.map((r) => [r.type, r]));
  const { entities, relationships } = result;

  const complete = entities.filter((e) => {
    const def = types.get(e.type);
    return def !== undefined && def.required.every((p) => present(e.properties[p]));
  }).length;
  const completeness = entities.length ? complete / entities.length : 0;

  const typeOf = new Map(entities.map((e) => [e.key, e.type]));
  const conforming = relationships.filter((r) => {
    const def = rels.get(r.type);
    return def !== undefined && typeOf.get(r.from_key) === def.from && typeOf.get(r.to_key) === def.to;
  }).length;
  const conformance = relationships.length ? conforming / relationships.length : entities.length ? 1 : 0;

  const confidences = [...entities, ...relationships].map((x) => Math.min(1, Math.max(0, x.confidence)));
  const confidence = confidences.length ? confidences.reduce((a, b) => a + b, 0) / confidences.length : 0;

  const chars = result.stats.characters;
  const coverage = chars > 0 ? Math.min(1, (entities.length * 1000) / chars / COVERAGE_TARGET_PER_1000_CHARS) : 0;

  const components = { completeness: round4(completeness), conformance: round4(conformance), confidence: round4(confidence), coverage: round4(coverage) };
  return { quality: round4((completeness + conformance + confidence + coverage) / 4), components };
}
