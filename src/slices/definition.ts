// A slice definition: the saved scope a context compile works from. ajv checks each field's shape
// (slices/schemas.ts); the rules across fields (shares summing to at most 1, a filter or share only
// for a plane the slice reads, from before to) and the defaults are settled here, once, so a
// stored slice always holds its full, normalized definition.
import { ApiError, type FieldProblem } from '../errors/catalogue.js';
import { parseDuration } from './duration.js';

export const PLANES = ['memory', 'document', 'entity'] as const;
export type Plane = (typeof PLANES)[number];
export const TOKENIZERS = ['cl100k_base', 'o200k_base'] as const;
export type TokenizerName = (typeof TOKENIZERS)[number];
export const FORMATS = ['markdown', 'json'] as const;
export type PackFormat = (typeof FORMATS)[number];
export const MIN_TOKENS = 256;
export const MAX_TOKENS = 128_000;
export const DEFAULT_TOKENS = 4000;

export type SliceFilters = {
  memory?: { kinds?: string[]; episode?: string };
  document?: { document_ids?: string[]; tags?: string[] };
  entity?: { types?: string[]; shape_ids?: string[] };
};

export type SubjectRef = { id: string } | { name: string; type?: string };

export type TimeWindow =
  | { field: 'created_at' | 'date_observed'; from?: string; to?: string }
  | { field: 'created_at' | 'date_observed'; last: string };

export interface SliceBudget {
  max_tokens: number;
  tokenizer: TokenizerName;
  sections: Partial<Record<Plane, number>>;
}

/** The normalized definition: every optional field present (null when unset). */
export interface SliceDefinition {
  description: string | null;
  planes: Plane[];
  filters: SliceFilters;
  subject: SubjectRef | null;
  hops: number;
  relationship_types: string[] | null;
  time_window: TimeWindow | null;
  query: string | null;
  budget: SliceBudget;
  format: PackFormat;
}

export type DefinitionInput = Partial<Omit<SliceDefinition, 'budget' | 'time_window'>> & {
  budget?: Partial<SliceBudget>;
  time_window?: { field?: 'created_at' | 'date_observed'; from?: string; to?: string; last?: string };
};

/** Equal shares over the planes read, unless the definition gives its own. */
function defaultSections(planes: Plane[]): Partial<Record<Plane, number>> {
  const share = Math.floor((1 / planes.length) * 1e4) / 1e4;
  return Object.fromEntries(planes.map((p) => [p, share]));
}

/**
 * Checks the cross-field rules and fills the defaults. `at` is the JSON pointer of the definition
 * in the request (/body or /body/slice), so problems name the field the client sent.
 */
export function normalizeDefinition(input: DefinitionInput, at = '/body'): SliceDefinition {
  const problems: FieldProblem[] = [];
  const planes = PLANES.filter((p) => (input.planes ?? PLANES).includes(p));
  // A filter or share for a plane not read is refused by the body schemas (onlyPlanesRead, slices/schemas.ts).
  const filters = input.filters ?? {};
  const given = input.budget?.sections;
  if (given) {
    const sum = Object.values(given).reduce((a, b) => a + (b ?? 0), 0);
    if (sum > 1 + 1e-9)
      problems.push({
        field: `${at}/budget/sections`,
        reason: `shares sum to ${Math.round(sum * 1e4) / 1e4}; they must sum to at most 1`,
      });
  }
  const window = input.time_window;
  let timeWindow: TimeWindow | null = null;
  if (window) {
    const field = window.field ?? 'created_at';
    if (window.last !== undefined) {
      if (!parseDuration(window.last))
        problems.push({
          field: `${at}/time_window/last`,
          reason: 'must be an ISO-8601 duration such as P30D or PT12H',
        });
      timeWindow = { field, last: window.last };
    } else {
      for (const end of ['from', 'to'] as const) {
        if (window[end] !== undefined && Number.isNaN(Date.parse(window[end]!)))
          problems.push({ field: `${at}/time_window/${end}`, reason: 'must be a date-time' });
      }
      if (window.from && window.to && Date.parse(window.from) > Date.parse(window.to))
        problems.push({ field: `${at}/time_window/to`, reason: 'must not be before from' });
      const iso = (t: string) => (Number.isNaN(Date.parse(t)) ? t : new Date(t).toISOString());
      timeWindow = {
        field,
        ...(window.from ? { from: iso(window.from) } : {}),
        ...(window.to ? { to: iso(window.to) } : {}),
      };
    }
  }
  if (problems.length > 0)
    throw new ApiError('invalid_request', `${problems[0]!.field.replace(/^\/body\/?/, '')}: ${problems[0]!.reason}`, {
      fields: problems,
    });
  const sections = given
    ? Object.fromEntries(planes.filter((p) => given[p] !== undefined).map((p) => [p, given[p]!]))
    : defaultSections(planes);
  return {
    description: input.description ?? null,
    planes,
    filters: Object.fromEntries(
      planes.filter((p) => filters[p] !== undefined).map((p) => [p, filters[p]]),
    ) as SliceFilters,
    subject: input.subject ?? null,
    hops: input.hops ?? 1,
    relationship_types: input.relationship_types ? [...input.relationship_types].sort() : null,
    time_window: timeWindow,
    query: input.query?.trim() ? input.query : null,
    budget: {
      max_tokens: input.budget?.max_tokens ?? DEFAULT_TOKENS,
      tokenizer: input.budget?.tokenizer ?? 'cl100k_base',
      sections,
    },
    format: input.format ?? 'markdown',
  };
}
