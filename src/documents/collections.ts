// Tags map to collections: one :Collection per project and normalized name. Committed ones are
// reused (resolved inside the write transaction); new ones are staged in the document's delta with
// an identity key, which the uniqueness constraint guards once applied.
import type { Tx } from '../db/graph.js';
import { tenantToken } from '../db/tenant.js';
import type { DeltaDraft } from '../deltas/draft.js';
import { identityKey, normalizeName } from '../entities/identity.js';
import { invalid } from '../errors/catalogue.js';

const MAX_TAG_LENGTH = 100;
export const MAX_TAGS = 50;

export interface Tag {
  name: string;
  normalized: string;
}

export interface CollectionRef {
  id: string;
  name: string;
}

/** Trimmed tags, one per normalized name (the first spelling wins); an empty one is a 400. */
export function cleanTags(tags: string[], field = '/body/tags'): Tag[] {
  if (tags.length > MAX_TAGS) throw invalid(field, `must have at most ${MAX_TAGS} tags`);
  const seen = new Map<string, Tag>();
  tags.forEach((raw, i) => {
    const name = raw.replace(/\s+/g, ' ').trim();
    const normalized = normalizeName(name);
    if (normalized === '') throw invalid(`${field}/${i}`, 'must contain a letter or digit');
    if (name.length > MAX_TAG_LENGTH) throw invalid(`${field}/${i}`, `must be at most ${MAX_TAG_LENGTH} characters`);
    if (!seen.has(normalized)) seen.set(normalized, { name, normalized });
  });
  return [...seen.values()];
}

/** Comma-separated tags of a multipart form field. */
export function splitTags(field: string): string[] {
  return field
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
}

/** The collection of each tag, in order: committed ones reused, missing ones staged in the draft. */
export async function resolveCollections(
  tx: Tx,
  projectId: string,
  draft: DeltaDraft,
  tags: Tag[],
): Promise<CollectionRef[]> {
  if (tags.length === 0) return [];
  // cypher/documents/resolve_collections.cypher's rows: collections as this file creates them (declared, not checked).
  const rows = await tx.run<{ id: string; name: string; normalized_name: string }>('documents/resolve_collections', {
    names: tags.map((t) => t.normalized),
    project_id: projectId,
  });
  const committed = new Map(rows.map((r) => [r.normalized_name, { id: r.id, name: r.name }]));
  return tags.map((tag) => {
    const found = committed.get(tag.normalized);
    if (found) return found;
    const id = draft.createNode(
      ['Collection'],
      { name: tag.name, normalized_name: tag.normalized, tenant: tenantToken(projectId) },
      { identityKey: identityKey(projectId, 'Collection', tag.name) },
    );
    return { id, name: tag.name };
  });
}
