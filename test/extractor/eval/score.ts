// Scores extractors against the labelled set in paragraphs.json: precision, recall and F1 per
// entity type and relationship type (micro-averaged over the paragraphs), plus the loop quality
// each paragraph would report, so its correlation with the measured F1 can be read off.
import { readFileSync } from 'node:fs';
import { normalizeName } from '../../../src/extractor/normalize.js';
import { scoreExtraction } from '../../../src/extractor/quality.js';
import type { ExtractionResult, Extractor, ExtractOptions } from '../../../src/extractor/types.js';
import { generalShape, RENAMED } from './shape.js';
import type { ShapeDef } from '../../../src/shapes/types.js';

export interface GoldParagraph {
  id: string;
  text: string;
  entities: [type: string, name: string][];
  relations: [type: string, from: string, to: string][];
}

export interface Counts {
  tp: number;
  fp: number;
  fn: number;
}
export interface Figures extends Counts {
  precision: number;
  recall: number;
  f1: number;
}

export interface ParagraphScore {
  id: string;
  /** F1 over the paragraph's entities and relations together (1 when gold and output are both empty). */
  f1: number;
  quality: number;
  components: Record<string, number>;
  falsePositives: string[];
  falseNegatives: string[];
}

export interface Evaluation {
  entities: Record<string, Figures>;
  relations: Record<string, Figures>;
  paragraphs: ParagraphScore[];
  /** Pearson correlation of the reported loop quality (and of each of its components) with the paragraph F1. */
  qualityCorrelation: number;
  componentCorrelations: Record<string, number>;
  /** Relations read from a negated sentence ("never", "not", "n't"): must stay 0. */
  negatedRelations: number;
  /** Many-to-one relationship types with more than one target for one source: must stay 0. */
  cardinalityViolations: number;
  millis: number;
}

export function loadGoldSet(): GoldParagraph[] {
  const raw = readFileSync(new URL('./paragraphs.json', import.meta.url), 'utf8');
  return (JSON.parse(raw) as { paragraphs: GoldParagraph[] }).paragraphs;
}

const figures = ({ tp, fp, fn }: Counts): Figures => {
  const precision = tp + fp ? tp / (tp + fp) : 1;
  const recall = tp + fn ? tp / (tp + fn) : 1;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  return { tp, fp, fn, precision, recall, f1 };
};

function tally(
  into: Map<string, Counts>,
  typeOf: (item: string) => string,
  predicted: Set<string>,
  gold: Set<string>,
  fp: string[],
  fn: string[],
): void {
  const bump = (item: string, field: keyof Counts) => {
    for (const type of [typeOf(item), 'overall']) {
      const c = into.get(type) ?? { tp: 0, fp: 0, fn: 0 };
      c[field] += 1;
      into.set(type, c);
    }
  };
  for (const item of predicted) {
    if (gold.has(item)) bump(item, 'tp');
    else {
      bump(item, 'fp');
      fp.push(item);
    }
  }
  for (const item of gold)
    if (!predicted.has(item)) {
      bump(item, 'fn');
      fn.push(item);
    }
}

function pearson(xs: number[], ys: number[]): number {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = (xs[i] as number) - mx;
    const dy = (ys[i] as number) - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return sxx && syy ? sxy / Math.sqrt(sxx * syy) : 0;
}

const NEGATION = /\b(?:not|never|no longer|n't)\b|n't\b/iu;

export async function evaluate(
  extractor: Extractor,
  gold: GoldParagraph[],
  options: ExtractOptions = { effort: 'agentic' },
  shape: ShapeDef = generalShape,
): Promise<Evaluation> {
  const entityCounts = new Map<string, Counts>();
  const relationCounts = new Map<string, Counts>();
  const paragraphs: ParagraphScore[] = [];
  const many = new Set(shape.relationship_types.filter((r) => r.cardinality === 'many_to_one').map((r) => r.type));
  let negatedRelations = 0;
  let cardinalityViolations = 0;
  const started = performance.now();
  for (const p of gold) {
    const raw: ExtractionResult = await extractor.extract(p.text, shape, options);
    const result = { ...raw, relationships: raw.relationships.map((r) => ({ ...r, type: RENAMED[r.type] ?? r.type })) };
    const nameOf = new Map(result.entities.map((e) => [e.key, e.normalized_name]));
    const predictedEntities = new Set(result.entities.map((e) => `${e.type}|${e.normalized_name}`));
    const goldEntities = new Set(p.entities.map(([t, n]) => `${t}|${normalizeName(n)}`));
    const predictedRelations = new Set(
      result.relationships.map(
        (r) => `${r.type}|${nameOf.get(r.from_key) ?? r.from_key}|${nameOf.get(r.to_key) ?? r.to_key}`,
      ),
    );
    const goldRelations = new Set(p.relations.map(([t, f, to]) => `${t}|${normalizeName(f)}|${normalizeName(to)}`));
    const fp: string[] = [];
    const fn: string[] = [];
    tally(entityCounts, (i) => i.split('|')[0] as string, predictedEntities, goldEntities, fp, fn);
    tally(relationCounts, (i) => i.split('|')[0] as string, predictedRelations, goldRelations, fp, fn);
    for (const r of result.relationships)
      if (
        NEGATION.test(r.evidence) &&
        !goldRelations.has(`${r.type}|${nameOf.get(r.from_key)}|${nameOf.get(r.to_key)}`)
      )
        negatedRelations += 1;
    const targets = new Map<string, Set<string>>();
    for (const r of result.relationships)
      if (many.has(r.type))
        targets.set(`${r.type}|${r.from_key}`, (targets.get(`${r.type}|${r.from_key}`) ?? new Set()).add(r.to_key));
    for (const t of targets.values()) if (t.size > 1) cardinalityViolations += 1;
    const tp = predictedEntities.size + predictedRelations.size - fp.length;
    const f1 = figures({ tp, fp: fp.length, fn: fn.length }).f1;
    const score = scoreExtraction(raw, shape);
    paragraphs.push({
      id: p.id,
      f1: tp + fp.length + fn.length === 0 ? 1 : f1,
      quality: score.quality,
      components: { ...score.components },
      falsePositives: fp,
      falseNegatives: fn,
    });
  }
  const millis = performance.now() - started;
  const toRecord = (m: Map<string, Counts>) =>
    Object.fromEntries(
      [...m]
        .sort(([a], [b]) => (a === 'overall' ? 1 : b === 'overall' ? -1 : a < b ? -1 : 1))
        .map(([k, v]) => [k, figures(v)]),
    );
  return {
    entities: toRecord(entityCounts),
    relations: toRecord(relationCounts),
    paragraphs,
    qualityCorrelation: pearson(
      paragraphs.map((x) => x.quality),
      paragraphs.map((x) => x.f1),
    ),
    componentCorrelations: Object.fromEntries(
      [...new Set(paragraphs.flatMap((x) => Object.keys(x.components)))].sort().map((k) => [
        k,
        pearson(
          paragraphs.map((x) => x.components[k] ?? 1),
          paragraphs.map((x) => x.f1),
        ),
      ]),
    ),
    negatedRelations,
    cardinalityViolations,
    millis,
  };
}

/** Pearson correlation of quality with F1 over the paragraphs of several evaluations together. */
export function pooledCorrelation(evaluations: Evaluation[]): number {
  const all = evaluations.flatMap((e) => e.paragraphs);
  return pearson(
    all.map((p) => p.quality),
    all.map((p) => p.f1),
  );
}

export function formatEvaluation(title: string, e: Evaluation): string {
  const pct = (n: number) => n.toFixed(3);
  const row = (kind: string, type: string, f: Figures) =>
    `${kind.padEnd(9)} ${type.padEnd(16)} P ${pct(f.precision)}  R ${pct(f.recall)}  F1 ${pct(f.f1)}  (tp ${f.tp}, fp ${f.fp}, fn ${f.fn})`;
  return [
    `== ${title}`,
    ...Object.entries(e.entities).map(([t, f]) => row('entity', t, f)),
    ...Object.entries(e.relations).map(([t, f]) => row('relation', t, f)),
    `quality/F1 correlation (Pearson, ${e.paragraphs.length} paragraphs): ${e.qualityCorrelation.toFixed(3)}; by component: ${Object.entries(
      e.componentCorrelations,
    )
      .map(([k, v]) => `${k} ${v.toFixed(3)}`)
      .join(', ')}`,
    `relations from negated statements: ${e.negatedRelations}; many-to-one cardinality violations: ${e.cardinalityViolations}`,
    `time: ${e.millis.toFixed(0)} ms`,
  ].join('\n');
}
