// The node page (a memory or an entity: properties, relationships, history with revert) and search over
// /v1/search. The loops and syncs page is activity.ts.
import { api, errorText } from './api.js';
import { h, show, type Child } from './dom.js';

export interface Shell {
  frame(main: Child): void;
  can(scope: string): boolean;
}

export interface Settings {
  temporal_ui: string | null;
  temporal_namespace: string;
}

interface HistoryDelta {
  id: string;
  status: string;
  summary: string;
  created_at: string;
  ops: string[];
}
interface GraphNode {
  id: string;
  labels: string[];
  name: string | null;
  properties: Record<string, unknown>;
  created_at?: string | null;
}
interface GraphEdge {
  id: string | null;
  type: string;
  source: string;
  target: string;
  source_name: string | null;
  target_name: string | null;
}

export function ago(iso: string | null | undefined): string {
  if (!iso) return '';
  const s = Math.max(0, (Date.now() - Date.parse(iso)) / 1000);
  if (s < 60) return `${Math.round(s)} s ago`;
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86400)} d ago`;
}

export const nodeHref = (id: string) => `#/node/${encodeURIComponent(id)}`;
export const deltaHref = (id: string) => `#/delta/${encodeURIComponent(id)}`;

/** A memory or an entity: what the graph says of it, its relationships, and the deltas that touched it. */
export async function renderNode(shell: Shell, id: string): Promise<void> {
  shell.frame(h('p', { class: 'muted' }, 'Loading…'));
  const enc = encodeURIComponent(id);
  let memory: Record<string, unknown> | null = null;
  let node: GraphNode | null = null;
  let edges: GraphEdge[] = [];
  if (shell.can('graph:read')) {
    try {
      const around = await api<{ node: GraphNode; edges: GraphEdge[] }>('GET', `/v1/graph/nodes/${enc}?limit=50`);
      node = around.node;
      edges = around.edges.filter((e) => e.source === id || e.target === id);
    } catch {
      node = null; // deleted or not readable: the history still says what happened to it
    }
  }
  const isEntity = !!node?.labels.includes('Entity');
  if (!isEntity && shell.can('memories:read')) {
    try {
      memory = (await api<{ memory: Record<string, unknown> }>('GET', `/v1/memories/${enc}`)).memory;
    } catch {
      memory = null;
    }
  }
  let history: HistoryDelta[] = [];
  let historyError: string | null = null;
  const historyPath = isEntity || (!memory && node) ? `/v1/entities/${enc}/history` : `/v1/memories/${enc}/history`;
  try {
    history = (await api<{ deltas: HistoryDelta[] }>('GET', historyPath)).deltas;
  } catch (e) {
    historyError = errorText(e);
  }
  if (!memory && !node && historyError) return shell.frame(h('p', { class: 'error' }, historyError));
  const outcome = h('p', { class: 'outcome', id: 'outcome', role: 'status' });
  const shown = memory ?? (node ? { labels: node.labels, name: node.name, ...node.properties } : null);
  shell.frame([
    h('p', {}, h('a', { href: '#/queue' }, '← Queue')),
    h('h2', {}, isEntity ? 'Entity ' : memory ? 'Memory ' : 'Node ', h('code', {}, id)),
    shown
      ? h(
          'dl',
          { class: 'props memory', id: 'memory' },
          Object.entries(shown).map(([k, v]) => [h('dt', {}, k), h('dd', {}, show(v))]),
        )
      : h('p', { class: 'muted' }, 'Not readable now (deleted, or outside what this key may read).'),
    edges.length
      ? [
          h('h3', {}, 'Relationships'),
          h(
            'ul',
            { class: 'edges', id: 'edges' },
            edges.map((e) =>
              h(
                'li',
                {},
                h('a', { href: nodeHref(e.source) }, e.source_name ?? e.source),
                ' —',
                h('code', {}, e.type),
                '→ ',
                h('a', { href: nodeHref(e.target) }, e.target_name ?? e.target),
              ),
            ),
          ),
        ]
      : null,
    h('h3', {}, 'History'),
    historyError ? h('p', { class: 'error' }, historyError) : null,
    h(
      'table',
      { class: 'queue history', id: 'history' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['When', 'Delta', 'Ops', 'Status', ''].map((t) => h('th', {}, t)),
        ),
      ),
      h(
        'tbody',
        {},
        history.map((d) => historyRow(shell, d, outcome)),
      ),
    ),
    outcome,
  ]);
}

function historyRow(shell: Shell, d: HistoryDelta, outcome: HTMLElement): HTMLElement {
  const cell = h('td');
  const statusCell = h('td', {}, h('span', { class: `status ${d.status}` }, d.status));
  if (d.status === 'applied' && shell.can('deltas:apply'))
    cell.append(
      h(
        'button',
        {
          class: 'small danger revert',
          'data-delta': d.id,
          onclick: () => {
            api<{ delta: { status: string } }>('POST', `/v1/deltas/${encodeURIComponent(d.id)}/revert`, {
              reason: 'reverted from the review console',
            })
              .then((r) => {
                // In place: a reverted creation may leave nothing to read at this id.
                statusCell.replaceChildren(h('span', { class: `status ${r.delta.status}` }, r.delta.status));
                cell.replaceChildren();
                outcome.textContent = `Delta ${r.delta.status}.`;
                outcome.className = 'outcome ok';
              })
              .catch((e: unknown) => {
                outcome.textContent = errorText(e);
                outcome.className = 'outcome error';
              });
          },
        },
        'Revert',
      ),
    );
  return h(
    'tr',
    {},
    h('td', { class: 'time', title: d.created_at }, ago(d.created_at)),
    h('td', {}, h('a', { href: deltaHref(d.id) }, d.summary || d.id)),
    h('td', {}, d.ops.join(', ')),
    statusCell,
    cell,
  );
}

interface SearchHit {
  id: string;
  type: 'memory' | 'chunk' | 'entity';
  label: string;
  name: string | null;
  score?: number;
}

/** One box over POST /v1/search; each result opens its page. */
export async function renderSearch(shell: Shell, query: string): Promise<void> {
  if (!query) return shell.frame(h('p', { class: 'muted' }, 'Type in the search box above.'));
  shell.frame(h('p', { class: 'muted' }, 'Searching…'));
  if (!shell.can('search:read'))
    return shell.frame(h('p', { class: 'muted' }, 'This key cannot search (search:read).'));
  let hits: SearchHit[];
  try {
    hits = (await api<{ nodes: SearchHit[] }>('POST', '/v1/search', { query, limit: 50 })).nodes;
  } catch (e) {
    return shell.frame(h('p', { class: 'error' }, errorText(e)));
  }
  shell.frame([
    h('h2', {}, 'Search ', h('q', {}, query)),
    hits.length === 0
      ? h('p', { class: 'muted', id: 'results' }, 'Nothing found.')
      : h(
          'ol',
          { class: 'results', id: 'results' },
          hits.map((n) =>
            h(
              'li',
              { 'data-node': n.id },
              h('span', { class: `origin o-${n.type}` }, n.label),
              ' ',
              // A chunk is part of a document, not a page of its own: it opens as a node.
              h('a', { href: nodeHref(n.id) }, n.name ?? n.id),
            ),
          ),
        ),
  ]);
}
