// Naming rules of the translation: PascalCase labels (a label the engine reserves gets the "Api"
// prefix), snake_case properties (names the engine sets are renamed), HAS_<FIELD> relationship types.
import { RESERVED_LABELS, RESERVED_TYPES, ENGINE_PROPERTIES } from '../../shapes/definition.js';

function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
}

export function pascalCase(name: string): string {
  const joined = words(name)
    .map((w) => w[0]!.toUpperCase() + w.slice(1).toLowerCase())
    .join('');
  const safe = /^[A-Z]/.test(joined) ? joined : `T${joined}`;
  return safe.slice(0, 60);
}

export function snakeCase(name: string): string {
  const joined = words(name)
    .map((w) => w.toLowerCase())
    .join('_');
  return /^[a-z]/.test(joined) ? joined : `f_${joined}`;
}

/** The graph label of a source type: PascalCase, prefixed where the engine owns the name. */
export function labelFor(sourceName: string): string {
  const label = pascalCase(sourceName);
  return RESERVED_LABELS.has(label) ? `Api${label}` : label;
}

/** Source property names the engine owns, and what they become. */
const RENAMES: Record<string, string> = {
  id: 'external_id',
  type: 'kind',
  created_at: 'source_created_at',
  updated_at: 'source_updated_at',
};

/** The graph property of a source field (snake_case; engine-owned names renamed). */
export function propertyFor(sourceName: string): string {
  const snake = snakeCase(sourceName);
  if (RENAMES[snake]) return RENAMES[snake];
  if (ENGINE_PROPERTIES.has(snake) || snake === 'bridge_id' || snake === 'external_id') return `source_${snake}`;
  return snake;
}

/** HAS_<FIELD>, or the given type; a type the engine owns gets a _REF suffix. */
export function relationshipTypeFor(field: string, given?: string): string {
  const base = given ?? `HAS_${snakeCase(field).toUpperCase()}`;
  const clean =
    base
      .replace(/[^A-Z0-9_]/gi, '_')
      .toUpperCase()
      .replace(/^[^A-Z]+/, '')
      .slice(0, 60) || 'HAS_LINK';
  return RESERVED_TYPES.has(clean) ? `${clean}_REF` : clean;
}
