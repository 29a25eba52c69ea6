// The prompt we send an OpenAI-compatible model and the strict reading of its JSON answer into
// our ExtractionResult; kept apart from the HTTP call so both can be tested without a server.
import type { EntityTypeDef, PropertyDef, RelationshipTypeDef, ShapeDef } from '../shapes/types.js';
import { keepCardinality } from './shapeFit.js';
import type { ExtractedEntity, ExtractedRelationship, ExtractionResult, ExtractOptions, Mention } from './types.js';
import { entityKey, normalizeName } from './normalize.js';
import { tokenize } from './tokenize.js';
import { nameSpans } from './mentions.js';
import { readSignals } from './signals.js';
import { escapeRegExp } from '../shared/regex.js';

/** Used when the model gives no confidence of its own for an item. */
export const LLM_DEFAULT_CONFIDENCE = 0.7;
const MAX_MENTIONS = 1000;

export class LlmExtractionError extends Error {
  override readonly name = 'LlmExtractionError';
}

const CARDINALITY: Record<RelationshipTypeDef['cardinality'], (r: RelationshipTypeDef) => string> = {
  many_to_one: (r) => `each ${r.from} has at most one ${r.to}`,
  one_to_many: (r) => `each ${r.to} has at most one ${r.from}`,
  one_to_one: (r) => `each ${r.from} has at most one ${r.to} and each ${r.to} at most one ${r.from}`,
  many_to_many: () => 'any number on both sides',
};

export function buildMessages(
  text: string,
  shape: ShapeDef,
  options: ExtractOptions,
): { role: 'system' | 'user'; content: string }[] {
  const entityLines = shape.entity_types.map((t) => {
    const props = t.properties
      .map((p) => {
        const oneOf = p.enum ? `, one of: ${p.enum.join(', ')}` : '';
        return `${p.name} (${p.type}${oneOf}${t.required.includes(p.name) ? ', required' : ''})`;
      })
      .join(', ');
    const description = t.description ? `: ${t.description.replace(/\.$/u, '')}` : '';
    return `- ${t.label}${description}. Identified by ${t.identity || 'name'}. Properties: ${props || 'none'}.`;
  });
  const relLines = shape.relationship_types.map((r) => {
    const description = r.description ? `. ${r.description}` : '';
    const signals = r.patterns?.length ? `. Signalled by: ${r.patterns.join(', ')}` : '';
    const cardinality = `${r.cardinality}: ${CARDINALITY[r.cardinality](r)}`;
    return `- ${r.type}: ${r.from} -> ${r.to} (${cardinality})${description}${signals}`;
  });
  const effort =
    options.effort === 'agentic_plus'
      ? 'Be exhaustive: include every entity and relationship the text supports.'
      : 'Include the entities and relationships the text states clearly.';
  const pass =
    (options.pass ?? 1) > 1 ? ` This is pass ${options.pass}: also include ones an earlier pass may have missed.` : '';
  const system = [
    'You extract a knowledge graph from text. Use only these entity types:',
    ...entityLines,
    'and only these relationship types:',
    ...relLines,
    `${effort}${pass}`,
    'Only state what the text asserts: nothing from a negated or hypothetical statement ' +
      '("never worked for", "did not attend"). ' +
      'Keep names whole as written ("J. K. Rowling", "Bramwell & Ford", "Lumenfold Inc."). ' +
      'Every relationship goes from an entity of its first type to one of its second type, in that direction.',
    'Answer with one JSON object: {"entities":[{"name":string,"type":string,"properties":object}],' +
      '"relationships":[{"type":string,"from":entity name,"to":entity name,"evidence":the sentence}]}.',
  ].join('\n');
  return [
    { role: 'system', content: system },
    { role: 'user', content: text },
  ];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const confidenceOf = (v: unknown): number => (typeof v === 'number' && v >= 0 && v <= 1 ? v : LLM_DEFAULT_CONFIDENCE);

function findMentions(text: string, name: string): Mention[] {
  const escaped = escapeRegExp(name).replace(/\s+/gu, '\\s+');
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'giu');
  const out: Mention[] = [];
  for (const m of text.matchAll(pattern)) {
    if (out.length >= MAX_MENTIONS) break;
    out.push({ start: m.index, end: m.index + m[0].length, text: m[0] });
  }
  return out;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/u;

/** A value the property's declared type (and enum) accepts, or undefined. */
function fits(def: PropertyDef, v: unknown): v is string | number | boolean {
  if (def.enum && !(typeof v === 'string' && def.enum.includes(v))) return false;
  switch (def.type) {
    case 'string':
      return typeof v === 'string' && v.trim() !== '';
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'date':
      return typeof v === 'string' && DATE.test(v) && !Number.isNaN(Date.parse(v));
    case 'datetime':
      return typeof v === 'string' && !Number.isNaN(Date.parse(v)) && v.includes('T');
  }
}

/** Only the properties the type declares, each of its declared type; anything else is dropped. */
function shapeProperties(def: EntityTypeDef, raw: Record<string, unknown>): ExtractedEntity['properties'] {
  const out: ExtractedEntity['properties'] = {};
  for (const p of def.properties) if (fits(p, raw[p.name])) out[p.name] = raw[p.name] as string | number | boolean;
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
    const properties = shapeProperties(def, isRecord(item.properties) ? item.properties : {});
    properties[def.identity || 'name'] = name;
    const key = entityKey(def.label, name);
    const seen = byKey.get(key);
    if (seen) {
      seen.properties = { ...properties, ...seen.properties };
      seen.confidence = Math.max(seen.confidence, confidenceOf(item.confidence));
      continue;
    }
    byKey.set(key, {
      key,
      type: def.label,
      name,
      normalized_name: normalizeName(name),
      properties,
      mentions: findMentions(text, name),
      confidence: confidenceOf(item.confidence),
    });
  }
  return byKey;
}

/** The entity of exactly `type` the model named; a name of another type is a shape violation. */
function resolve(entities: Map<string, ExtractedEntity>, type: string, name: unknown): string | undefined {
  if (typeof name !== 'string') return undefined;
  const key = entityKey(type, name);
  return entities.has(key) ? key : undefined;
}

/** Reads the model's message content; anything but the agreed JSON object is an error. */
export function parseReply(content: string, text: string, shape: ShapeDef): ExtractionResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    throw new LlmExtractionError(`LLM reply content is not JSON: ${content.slice(0, 200)}`);
  }
  if (!isRecord(parsed) || !Array.isArray(parsed.entities))
    throw new LlmExtractionError('LLM reply JSON has no "entities" array');
  if (parsed.relationships !== undefined && !Array.isArray(parsed.relationships))
    throw new LlmExtractionError('LLM reply JSON "relationships" is not an array');
  const entities = readEntities(parsed.entities, text, shape);
  const rels = new Map(shape.relationship_types.map((r) => [r.type, r]));
  const relationships = new Map<string, ExtractedRelationship & { at: number }>();
  ((parsed.relationships ?? []) as unknown[]).forEach((item, at) => {
    if (!isRecord(item) || typeof item.type !== 'string') return;
    const def = rels.get(item.type);
    // Endpoints must be entities of exactly the type's from and to labels, in that direction.
    const from = def && resolve(entities, def.from, item.from);
    const to = def && resolve(entities, def.to, item.to);
    if (!def || !from || !to || from === to) return;
    const id = `${def.type}\u0000${from}\u0000${to}`;
    if (!relationships.has(id))
      relationships.set(id, {
        type: def.type,
        from_key: from,
        to_key: to,
        evidence: typeof item.evidence === 'string' ? item.evidence : '',
        confidence: confidenceOf(item.confidence),
        at,
      });
  });
  // A many-to-one type keeps one target per source: the most confident, then the first given.
  const kept = keepCardinality(shape, [...relationships.values()]).map(({ at: _at, ...r }) => r);
  const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const sortedEntities = [...entities.values()].sort(
    (a, b) => (a.mentions[0]?.start ?? Infinity) - (b.mentions[0]?.start ?? Infinity) || order(a.key, b.key),
  );
  const sortedRelationships = kept.sort(
    (a, b) => order(a.type, b.type) || order(a.from_key, b.from_key) || order(a.to_key, b.to_key),
  );
  const tokenized = tokenize(text);
  const signals = readSignals(tokenized, shape, sortedEntities, sortedRelationships, nameSpans(text, tokenized.tokens));
  return {
    entities: sortedEntities,
    relationships: sortedRelationships,
    stats: { characters: text.length, sentences: tokenized.sentences.length, signals },
  };
}
