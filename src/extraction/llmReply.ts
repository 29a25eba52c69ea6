// The prompt we send an OpenAI-compatible model and the strict reading of its JSON answer into
// our ExtractionResult; kept apart from the HTTP call so both can be tested without a server.
import type { ShapeDef } from '../shapes/types.js';
import type { ExtractedEntity, ExtractedRelationship, ExtractionResult, ExtractOptions, Mention } from './types.js';
import { entityKey, normalizeName } from './normalize.js';
import { tokenize } from './tokens.js';

/** Used when the model gives no confidence of its own for an item. */
export const LLM_DEFAULT_CONFIDENCE = 0.7;
const MAX_MENTIONS = 1000;

export class LlmExtractionError extends Error {
  override readonly name = 'LlmExtractionError';
}

export function buildMessages(text: string, shape: ShapeDef, options: ExtractOptions): { role: 'system' | 'user'; content: string }[] {
  const entityLines = shape.entity_types.map((t) => {
    const props = t.properties.map((p) => `${p.name}${p.enum ? ` (one of: ${p.enum.join(', ')})` : ''}`).join(', ');
    return `- ${t.label}${t.description ? `: ${t.description}` : ''}. Properties: ${props || 'none'}.`;
  });
  const relLines = shape.relationship_types.map((r) =>
    `- ${r.type}: ${r.from} -> ${r.to}${r.description ? `. ${r.description}` : ''}${r.patterns?.length ? `. Signalled by: ${r.patterns.join(', ')}` : ''}`);
  const effort = options.effort === 'agentic_plus' ? 'Be exhaustive: include every entity and relationship the text supports.' : 'Include the entities and relationships the text states clearly.';
  const pass = (options.pass ?? 1) > 1 ? ` This is pass ${options.pass}: also include ones an earlier pass may have missed.` : '';
  const system = [
    'You extract a knowledge graph from text. Use only these entity types:',
    ...entityLines,
    'and only these relationship types:',
    ...relLines,
    `${effort}${pass}`,
    'Answer with one JSON object: {"entities":[{"name":string,"type":string,"properties":object}],"relationships":[{"type":string,"from":entity name,"to":entity name,"evidence":the sentence}]}.',
  ].join('\n');
  return [{ role: 'system', content: system }, { role: 'user', content: text }];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const confidenceOf = (v: unknown): number => (typeof v === 'number' && v >= 0 && v <= 1 ? v : LLM_DEFAULT_CONFIDENCE);

function findMentions(text: string, name: string): Mention[] {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&').replace(/\s+/gu, '\\s+');
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'giu');
  const out: Mention[] = [];
  for (const m of text.matchAll(pattern)) {
    if (out.length >= MAX_MENTIONS) break;
    out.push({ start: m.index, end: m.index + m[0].length, text: m[0] });
  }
  return out;
}

function readEntities(items: unknown[], text: string, shape: ShapeDef): Map<string, ExtractedEntity> {
  const types = new Map(shape.entity_types.map((t) => [t.label, t]));
  const byKey = new Map<string, ExtractedEntity>();
  for (const item of items) {
    if (!isRecord(item) || typeof item.name !== 'string' || typeof item.type !== 'string') continue;
    const def = types.get(item.type);
    const name = item.name.trim();
    if (!def || normalizeName(name) === '') continue;
    const properties: ExtractedEntity['properties'] = {};
    for (const [k, v] of Object.entries(isRecord(item.properties) ? item.properties : {})) {
      if (typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v))) properties[k] = v;
    }
    properties[def.identity || 'name'] = name;
    const key = entityKey(def.label, name);
    const seen = byKey.get(key);
    if (seen) {
      seen.properties = { ...properties, ...seen.properties };
      seen.confidence = Math.max(seen.confidence, confidenceOf(item.confidence));
      continue;
    }
    byKey.set(key, { key, type: def.label, name, normalized_name: normalizeName(name), properties, mentions: findMentions(text, name), confidence: confidenceOf(item.confidence) });
  }
  return byKey;
}

function resolve(entities: Map<string, ExtractedEntity>, type: string, name: unknown): string | undefined {
  if (typeof name !== 'string') return undefined;
  const exact = entityKey(type, name);
  if (entities.has(exact)) return exact;
  const normalized = normalizeName(name);
  return [...entities.values()].filter((e) => e.normalized_name === normalized).map((e) => e.key).sort()[0];
}

/** Reads the model's message content; anything but the agreed JSON object is an error. */
export function parseReply(content: string, text: string, shape: ShapeDef): ExtractionResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    throw new LlmExtractionError(`LLM reply content is not JSON: ${content.slice(0, 200)}`);
  }
  if (!isRecord(parsed) || !Array.isArray(parsed.entities)) throw new LlmExtractionError('LLM reply JSON has no "entities" array');
  if (parsed.relationships !== undefined && !Array.isArray(parsed.relationships)) throw new LlmExtractionError('LLM reply JSON "relationships" is not an array');
  const entities = readEntities(parsed.entities, text, shape);
  const rels = new Map(shape.relationship_types.map((r) => [r.type, r]));
  const relationships = new Map<string, ExtractedRelationship>();
  for (const item of (parsed.relationships ?? []) as unknown[]) {
    if (!isRecord(item) || typeof item.type !== 'string') continue;
    const def = rels.get(item.type);
    const from = def && resolve(entities, def.from, item.from);
    const to = def && resolve(entities, def.to, item.to);
    if (!def || !from || !to) continue;
    const id = `${def.type}\u0000${from}\u0000${to}`;
    if (!relationships.has(id)) relationships.set(id, { type: def.type, from_key: from, to_key: to, evidence: typeof item.evidence === 'string' ? item.evidence : '', confidence: confidenceOf(item.confidence) });
  }
  const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return {
    entities: [...entities.values()].sort((a, b) => (a.mentions[0]?.start ?? Infinity) - (b.mentions[0]?.start ?? Infinity) || order(a.key, b.key)),
    relationships: [...relationships.values()].sort((a, b) => order(a.type, b.type) || order(a.from_key, b.from_key) || order(a.to_key, b.to_key)),
    stats: { characters: text.length, sentences: tokenize(text).sentences.length },
  };
}
