// Fits ranked candidates into a token budget. The header and a worst-case truncation marker are
// reserved first; each plane then fills its share of the rest first-fit (an item that does not fit
// is skipped and the next one tried, never a stop); what the planes leave unused spills over to the
// items still waiting, taken round-robin by rank across planes; relationships among the chosen
// entities take what is left. The final text is re-counted and, should joining the pieces have
// cost more than their sum, the last item taken is dropped until used_tokens ≤ max_tokens.
import type { Plane, SliceDefinition } from '../slices/definition.js';
import type { Ranked } from './rank.js';
import { itemText, renderLayout, type HeaderInput, type RenderItem, type Renderer } from './render.js';
import type { TokenCounter } from './tokenCount.js';

/** Tokens the query may take in the header. */
export const HEADER_QUERY_TOKENS = 48;
const REF_LETTER: Record<Plane, string> = { memory: 'm', document: 'd', entity: 'e' };

export interface Chosen extends Ranked {
  ref: string;
  tokens: number;
}

export interface ChosenEdge {
  source: string;
  type: string;
  target: string;
  source_ref: string;
  target_ref: string;
}

export interface Fitted {
  text: string;
  usedTokens: number;
  chosen: Map<Plane, Chosen[]>;
  edges: ChosenEdge[];
  /** non-duplicate candidates left out */
  overBudget: number;
  sections: Record<string, { share: number; quota: number; used_tokens: number; items: number }>;
}

/** Tokens are never fewer than the whitespace-separated runs of a text (no BPE token spans two). */
const lowerBound = (line: string): number => line.match(/\S+/g)?.length ?? 0;

const renderItem = (c: Ranked, ref: string): RenderItem => ({
  ref,
  type: c.type,
  label: c.label,
  name: c.name,
  text: itemText(c.text),
  kind: c.kind,
  date: c.date,
});

type Edge = { source: string; type: string; target: string };

/** The items chosen to fit the budget, before relationships are added and the text is assembled. */
export interface Selection {
  def: SliceDefinition;
  r: Renderer;
  counter: TokenCounter;
  headerText: string;
  pool: Map<Plane, Ranked[]>;
  poolSize: number;
  quotas: Map<Plane, number>;
  maxTokens: number;
  /** ids chosen, and the order they were taken in */
  order: Ranked[];
  /** tokens left for relationships */
  edgeRoom: number;
}

/** Ids of the entities a selection chose: relationships are drawn among these only. */
export function selectedEntityIds(selection: Selection): string[] {
  return selection.order.filter((c) => c.plane === 'entity').map((c) => c.id);
}

export function fitBudget(
  def: SliceDefinition,
  ranked: Map<Plane, Ranked[]>,
  edges: Edge[],
  r: Renderer,
  counter: TokenCounter,
  header: HeaderInput,
  maxTokens: number,
): Fitted {
  return fitSelection(selectItems(def, ranked, r, counter, header, maxTokens), edges);
}

/** Chooses the items (quota first-fit per plane, then spill-over by rank); relationships do not change the choice. */
export function selectItems(
  def: SliceDefinition,
  ranked: Map<Plane, Ranked[]>,
  r: Renderer,
  counter: TokenCounter,
  header: HeaderInput,
  maxTokens: number,
): Selection {
  const headerText = r.header({ ...header, query: counter.clip(itemText(header.query), HEADER_QUERY_TOKENS) });
  const pool = new Map(def.planes.map((p) => [p, (ranked.get(p) ?? []).filter((c) => c.duplicateOf === null)]));
  const poolSize = [...pool.values()].reduce((n, l) => n + l.length, 0);
  const avail = maxTokens - counter.count(headerText) - counter.count(r.marker(poolSize, maxTokens));
  const taken = new Set<string>();
  const order: Ranked[] = [];
  const used = new Map<Plane, number>(def.planes.map((p) => [p, 0]));
  let total = 0;

  // Each candidate is costed with the widest ref of its plane; its line is rendered once.
  const placeholders = new Map(
    def.planes.map((p) => [p, `${REF_LETTER[p]}${'9'.repeat(String(pool.get(p)!.length).length)}`]),
  );
  const lines = new Map<string, string>();
  const costOf = (c: Ranked, room: number): number | null => {
    let line = lines.get(c.id);
    if (line === undefined) {
      line = r.item(renderItem(c, placeholders.get(c.plane)!));
      lines.set(c.id, line);
    }
    const heading = used.get(c.plane) === 0 ? counter.count(r.heading(c.plane)) : 0;
    if (lowerBound(line) + heading > room) return null;
    const cost = counter.countSplit(line, r.refEnd(line)) + heading;
    return cost <= room ? cost : null;
  };
  const take = (c: Ranked, cost: number) => {
    taken.add(c.id);
    order.push(c);
    used.set(c.plane, used.get(c.plane)! + cost);
    total += cost;
  };

  const quotas = new Map(def.planes.map((p) => [p, Math.floor(Math.max(0, avail) * (def.budget.sections[p] ?? 0))]));
  for (const plane of def.planes) {
    for (const c of pool.get(plane)!) {
      const cost = costOf(c, Math.min(quotas.get(plane)! - used.get(plane)!, avail - total));
      if (cost !== null) take(c, cost);
    }
  }
  const depth = Math.max(0, ...[...pool.values()].map((l) => l.length));
  for (let i = 0; i < depth && avail - total > 0; i += 1) {
    for (const plane of def.planes) {
      const c = pool.get(plane)![i];
      if (!c || taken.has(c.id)) continue;
      const cost = costOf(c, avail - total);
      if (cost !== null) take(c, cost);
    }
  }

  return { def, r, counter, headerText, pool, poolSize, quotas, maxTokens, order, edgeRoom: avail - total };
}

/**
 * Adds the relationships among the chosen entities that fit what is left, assembles the text,
 * re-counts it, and drops the last item taken while the joined text is over budget (relationships
 * give way first). `edges` may hold more than the chosen entities' relationships; only those count.
 */
export function fitSelection(selection: Selection, edges: Edge[]): Fitted {
  const order = [...selection.order];
  const taken = new Set(order.map((c) => c.id));
  let edgeRoom = selection.edgeRoom;
  for (;;) {
    const fitted = assemble(selection, taken, edges, edgeRoom);
    if (fitted.usedTokens <= selection.maxTokens || order.length === 0) return fitted;
    taken.delete(order.pop()!.id);
    edgeRoom = 0; // once over budget, relationships give way first
  }
}

/** The text of the taken items (and the relationships among them that fit edgeRoom), counted per section. */
function assemble(
  fixed: Omit<Selection, 'order' | 'edgeRoom'>,
  taken: Set<string>,
  edges: Edge[],
  edgeRoom: number,
): Fitted {
  const { def, pool, r, counter, headerText, maxTokens, poolSize, quotas } = fixed;
  const chosen = new Map<Plane, Chosen[]>();
  const refs = new Map<string, string>();
  const itemLines = new Map<string, string>();
  for (const plane of def.planes) {
    const items = pool
      .get(plane)!
      .filter((c) => taken.has(c.id))
      .map((c, i) => {
        const ref = `${REF_LETTER[plane]}${i + 1}`;
        refs.set(c.id, ref);
        const line = r.item(renderItem(c, ref));
        itemLines.set(c.id, line);
        return { ...c, ref, tokens: counter.countSplit(line, r.refEnd(line)) };
      });
    chosen.set(plane, items);
  }
  const chosenEdges: ChosenEdge[] = [];
  let left = edgeRoom;
  for (const e of edges) {
    const source_ref = refs.get(e.source);
    const target_ref = refs.get(e.target);
    if (!source_ref || !target_ref || left <= 0) continue;
    const cost =
      counter.count(r.edge({ source_ref, type: e.type, target_ref })) +
      (chosenEdges.length === 0 ? counter.count(r.heading('edges')) : 0);
    if (cost > left) continue;
    left -= cost;
    chosenEdges.push({ ...e, source_ref, target_ref });
  }
  const overBudget = poolSize - taken.size;
  const layout = {
    header: headerText,
    sections: def.planes.map((plane) => ({
      plane,
      items: chosen.get(plane)!.map((c) => itemLines.get(c.id)!),
    })),
    edges: chosenEdges.map((e) => r.edge(e)),
    marker: overBudget > 0 ? r.marker(overBudget, maxTokens) : '',
  };
  const text = renderLayout(r, layout);
  const sections: Fitted['sections'] = {};
  for (const plane of def.planes) {
    const items = chosen.get(plane)!;
    const tokens = items.reduce((n, c) => n + c.tokens, 0) + (items.length > 0 ? counter.count(r.heading(plane)) : 0);
    sections[plane] = {
      share: def.budget.sections[plane] ?? 0,
      quota: quotas.get(plane)!,
      used_tokens: tokens,
      items: items.length,
    };
  }
  return { text, usedTokens: counter.count(text), chosen, edges: chosenEdges, overBudget, sections };
}

/** The chosen items and relationships in another format (the markdown beside a JSON pack); not budgeted. */
export function renderFitted(
  def: SliceDefinition,
  fitted: Fitted,
  r: Renderer,
  counter: TokenCounter,
  header: HeaderInput,
  maxTokens: number,
): string {
  return renderLayout(r, {
    header: r.header({ ...header, query: counter.clip(itemText(header.query), HEADER_QUERY_TOKENS) }),
    sections: def.planes.map((plane) => ({
      plane,
      items: fitted.chosen.get(plane)!.map((c) => r.item(renderItem(c, c.ref))),
    })),
    edges: fitted.edges.map((e) => r.edge(e)),
    marker: fitted.overBudget > 0 ? r.marker(fitted.overBudget, maxTokens) : '',
  });
}
