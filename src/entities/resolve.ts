// Resolves entity references (an id, or a name with an optional type) against the project's
// committed entities inside the write transaction, staging new :Entity nodes in the same delta
// when none matches. Names match by normalized form; a given type is preferred.
import type { Tx } from '../db/graph.js';
import { checkTypeLabel, type DeltaDraft } from '../deltas/draft.js';
import { invalid } from '../errors/catalogue.js';
import { identityKey, normalizeName } from './identity.js';
import { tenantToken } from '../db/tenant.js';
import { entitiesByIds, entitiesByNormalizedNames } from './store.js';

export interface EntityRef {
  id?: string;
  name?: string;
  type?: string;
}

export const DEFAULT_ENTITY_TYPE = 'Concept';

export class EntityResolver {
  private readonly staged = new Map<string, string>();

  /** shapeId: the shape new entities are made through (stamped as shape_id, so preflight validates them against it). */
  constructor(
    private readonly tx: Tx,
    private readonly projectId: string,
    private readonly draft: DeltaDraft,
    private readonly shapeId: string | null = null,
  ) {}

  /** Returns the node id of each reference, in order; field names the request path for errors. */
  async resolve(refs: { ref: EntityRef; field: string }[]): Promise<string[]> {
    const byId = refs.filter((r) => r.ref.id).map((r) => r.ref.id as string);
    const known = new Set((await entitiesByIds(this.tx, this.projectId, byId)).map((e) => e.id));
    const names = [
      ...new Set(refs.filter((r) => !r.ref.id && r.ref.name).map((r) => normalizeName(r.ref.name as string))),
    ];
    const committed = new Map<string, { id: string; type: string }[]>();
    for (const entity of await entitiesByNormalizedNames(this.tx, this.projectId, names)) {
      const list = committed.get(entity.name) ?? [];
      list.push({ id: entity.id, type: entity.type });
      committed.set(entity.name, list);
    }
    return refs.map(({ ref, field }) => {
      if (ref.id) {
        if (!known.has(ref.id)) throw invalid(`${field}/id`, `no committed entity ${ref.id} in this project`);
        return ref.id;
      }
      const name = (ref.name ?? '').trim();
      const normalized = normalizeName(name);
      if (!normalized) throw invalid(field, 'must name an entity');
      if (ref.type !== undefined) checkTypeLabel(ref.type, `${field}/type`);
      const candidates = committed.get(normalized) ?? [];
      const match = ref.type ? candidates.find((c) => c.type === ref.type) : candidates[0];
      if (match) return match.id;
      const type = ref.type ?? DEFAULT_ENTITY_TYPE;
      const key = identityKey(this.projectId, type, name);
      const existing = this.staged.get(key);
      if (existing) return existing;
      const props = {
        name,
        normalized_name: normalized,
        type,
        tenant: tenantToken(this.projectId),
        ...(this.shapeId ? { shape_id: this.shapeId } : {}),
      };
      const id = this.draft.createNode(['Entity', type], props, { identityKey: key });
      this.staged.set(key, id);
      return id;
    });
  }
}
