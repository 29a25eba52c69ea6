// The text a node is embedded from, and the length rule (docs/embeddings.md "Text and windows").
// Every text is cut to maxChars characters (at the last whitespace in the final tenth of the limit,
// else at the limit); the embedded engine then windows what remains at 510 tokens and averages the
// windows, and an external endpoint gets it as is (set EMBEDDINGS_MAX_CHARS below its own window).
import crypto from 'node:crypto';

export const DEFAULT_MAX_CHARS = 4_000;

/** Cuts text to at most maxChars characters by the documented rule (surrogate pairs kept whole). */
export function clipText(text: string, maxChars: number = DEFAULT_MAX_CHARS): string {
  const chars = Array.from(text.trim());
  if (chars.length <= maxChars) return chars.join('');
  const head = chars.slice(0, maxChars);
  const floor = Math.floor(maxChars * 0.9);
  for (let i = head.length - 1; i >= floor; i -= 1) {
    if (/\s/.test(head[i] as string)) return head.slice(0, i).join('').trimEnd();
  }
  return head.join('');
}

/** A memory: its name (when it has one) and its content. */
export function memoryText(props: { name?: unknown; content?: unknown }): string {
  return [props.name, props.content]
    .filter((v): v is string => typeof v === 'string' && v.trim() !== '')
    .join('. ')
    .trim();
}

/**
 * A memory's context (docs/recall.md, "Context"): the content of the memory before it in its episode, then its
 * own ('' before it: the first of its episode). A reply ("Yes, every Sunday.") is found by what it answers.
 */
export function contextText(previous: string, props: { content?: unknown }): string {
  const own = typeof props.content === 'string' ? props.content.trim() : '';
  return `${previous.trim()}\n${own}`.trim();
}

/** A document chunk: its text. */
export function chunkText(props: { text?: unknown }): string {
  return typeof props.text === 'string' ? props.text.trim() : '';
}

/** Properties that describe an entity in words, read first (the rest follow by key). */
const DESCRIPTIVE = ['description', 'summary', 'title', 'role', 'aliases'];
const ENTITY_SKIP = new Set(['id', 'name', 'normalized_name', 'type', 'shape_id', 'external_id', 'bridge_id']);
const ENTITY_DESCRIPTION_CHARS = 300;

/**
 * An entity: its name, its type labels and a short description from its own text and number
 * properties (descriptive ones first, then by key), at most 300 characters of description.
 * Engine-owned properties (passed in `internal`) and date-times never take part.
 */
export function entityText(
  name: string,
  labels: string[],
  props: Record<string, unknown>,
  internal: ReadonlySet<string>,
): string {
  const types = labels.filter((l) => !['Entity', 'Knowledge', 'Pending'].includes(l));
  const keys = Object.keys(props)
    .filter((k) => !ENTITY_SKIP.has(k) && !internal.has(k) && !k.startsWith('embedding'))
    .sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  const parts: string[] = [];
  let used = 0;
  for (const key of keys) {
    const value = describe(props[key]);
    if (value === '') continue;
    const part = `${key.replace(/[_.]/g, ' ')}: ${value}`;
    if (used + part.length > ENTITY_DESCRIPTION_CHARS) break;
    parts.push(part);
    used += part.length + 2;
  }
  const head = types.length > 0 ? `${name} (${types.join(', ')})` : name;
  return parts.length > 0 ? `${head}. ${parts.join('; ')}` : head;
}

function rank(key: string): number {
  const i = DESCRIPTIVE.indexOf(key);
  return i === -1 ? DESCRIPTIVE.length : i;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value))
    return value
      .map(describe)
      .filter((v) => v !== '')
      .join(', ');
  return '';
}

/** The hash stored beside a vector: the model id and the exact text embedded. */
export function textHash(modelId: string, text: string): string {
  return crypto.createHash('sha256').update(modelId).update('\u0000').update(text).digest('hex');
}
