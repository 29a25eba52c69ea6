// How a pack is rendered as text: a header, one section per plane, the relationships among the
// chosen entities, and a truncation marker. The text is made of these pieces, concatenated as they
// are, so the budget can count each piece before the whole is re-counted. Markdown is citable:
// every item line starts with its ref ([m1], [d2], [e3]); the JSON format writes one JSON object per
// line (JSON Lines) with the same refs.
import { collapseWhitespace } from '../briefing/plain.js';
import type { PackFormat, Plane } from '../slices/definition.js';

export interface RenderItem {
  ref: string;
  type: 'memory' | 'chunk' | 'entity';
  label: string;
  name: string;
  text: string;
  kind: string | null;
  date: string | null;
}

export interface RenderEdge {
  source_ref: string;
  type: string;
  target_ref: string;
}

export interface HeaderInput {
  query: string;
  slice: { id: string; name: string; version: number } | null;
}

export interface Renderer {
  header(h: HeaderInput): string;
  heading(plane: Plane | 'edges'): string;
  item(i: RenderItem): string;
  /**
   * Where an item line splits into its ref and the rest with no token spanning the two (TokenCounter.countSplit),
   * or null where no such place is known.
   */
  refEnd(line: string): number | null;
  edge(e: RenderEdge): string;
  marker(omitted: number, maxTokens: number): string;
}

const TITLES: Record<Plane | 'edges', string> = {
  memory: 'Memories',
  document: 'Documents',
  entity: 'Entities',
  edges: 'Relationships',
};

/** Item text as it is rendered and returned: whitespace runs collapsed, so a line stays a line. */
export function itemText(text: string): string {
  return collapseWhitespace(text);
}

const markdown: Renderer = {
  header: (h) =>
    `# Context: ${h.query || '(no query)'}\n` +
    `${h.slice ? `Slice ${h.slice.name} v${h.slice.version}` : 'Inline slice'}; cite items by their [ref].\n`,
  heading: (plane) => `\n## ${TITLES[plane]}\n`,
  item: (i) => {
    if (i.type === 'memory') return `- [${i.ref}] (${[i.kind, i.date].filter(Boolean).join(', ')}) ${i.text}\n`;
    if (i.type === 'chunk') return `- [${i.ref}] ${i.name}: ${i.text}\n`;
    return `- [${i.ref}] ${i.name} (${i.label})${i.text ? `: ${i.text}` : ''}\n`;
  },
  // "- [m12] (fact) …": both encodings' pre-tokenizers end a piece at a "]" that a space follows, and start the
  // next at that space (a ref is a letter and digits), so the line's tokens are those of "- [m12]" and of the rest.
  refEnd: (line) => (line.startsWith('- [') && line.indexOf('] ') > 0 ? line.indexOf('] ') + 1 : null),
  edge: (e) => `- [${e.source_ref}] ${e.type} [${e.target_ref}]\n`,
  marker: (omitted, maxTokens) => `\n… ${omitted} more candidates omitted to fit ${maxTokens} tokens.\n`,
};

const jsonLines: Renderer = {
  header: (h) => `${JSON.stringify({ context: h.query, slice: h.slice })}\n`,
  heading: () => '',
  item: (i) => {
    const { ref, type, label, name, kind, date, text } = i;
    const line = { ref, type, label, name, ...(kind ? { kind } : {}), ...(date ? { date } : {}), text };
    return `${JSON.stringify(line)}\n`;
  },
  // {"ref":"m12","type":…: the quote and comma after the ref are one piece with it; counted whole.
  refEnd: () => null,
  edge: (e) => `${JSON.stringify({ source: e.source_ref, type: e.type, target: e.target_ref })}\n`,
  marker: (omitted, maxTokens) => `${JSON.stringify({ omitted, reason: `budget of ${maxTokens} tokens` })}\n`,
};

export function rendererFor(format: PackFormat): Renderer {
  return format === 'json' ? jsonLines : markdown;
}

export interface Layout {
  header: string;
  sections: { plane: Plane; items: string[] }[];
  edges: string[];
  marker: string;
}

/** The text of a layout: empty sections and an empty relationship list leave no heading. */
export function renderLayout(r: Renderer, layout: Layout): string {
  const parts = [layout.header];
  for (const s of layout.sections) if (s.items.length > 0) parts.push(r.heading(s.plane), ...s.items);
  if (layout.edges.length > 0) parts.push(r.heading('edges'), ...layout.edges);
  parts.push(layout.marker);
  return parts.join('');
}
