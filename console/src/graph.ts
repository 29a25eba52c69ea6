// The picture of a delta in its committed neighbourhood, drawn with cytoscape.js (bundled; no CDN).
// Committed nodes and relationships on the left, what the delta stages (created nodes, new relationships)
// on the right in their own box, drawn dashed; updated and deleted committed nodes marked. A finding's
// nodes are highlighted when it is selected. Labels are canvas text: nothing from the graph is HTML.
import cytoscape from 'cytoscape';

export interface GraphNode {
  id: string;
  label: string;
  kind: 'committed' | 'pending' | 'updated' | 'deleted';
}
export interface GraphEdge {
  id: string;
  from: string;
  to: string;
  type: string;
  pending: boolean;
}
export interface DeltaPicture {
  highlight(ids: string[]): void;
  destroy(): void;
}

const STYLE: cytoscape.StylesheetJson = [
  {
    selector: 'node',
    style: {
      label: 'data(label)',
      'font-size': 10,
      'text-valign': 'bottom',
      'text-margin-y': 3,
      'text-wrap': 'ellipsis',
      'text-max-width': '120px',
      width: 18,
      height: 18,
      'background-color': '#8a94a6',
      color: '#1f2430',
    },
  },
  { selector: 'node.pending', style: { 'background-color': '#2f7d32', shape: 'round-rectangle' } },
  { selector: 'node.updated', style: { 'background-color': '#b26a00', shape: 'diamond' } },
  { selector: 'node.deleted', style: { 'background-color': '#b3261e', shape: 'tag' } },
  {
    selector: 'node.side',
    style: {
      label: 'data(label)',
      'text-valign': 'top',
      'font-size': 11,
      'background-opacity': 0.04,
      'border-width': 1,
      'border-color': '#c5cad3',
      'border-style': 'dashed',
      shape: 'round-rectangle',
      padding: '16px',
    },
  },
  {
    selector: 'edge',
    style: {
      width: 1.5,
      'line-color': '#a0a7b4',
      'target-arrow-color': '#a0a7b4',
      'target-arrow-shape': 'triangle',
      'curve-style': 'bezier',
      label: 'data(type)',
      'font-size': 8,
      'text-rotation': 'autorotate',
      color: '#5b6372',
    },
  },
  {
    selector: 'edge.pending',
    style: { 'line-style': 'dashed', 'line-color': '#2f7d32', 'target-arrow-color': '#2f7d32' },
  },
  { selector: 'node.hl', style: { 'border-width': 4, 'border-color': '#d93025', width: 26, height: 26 } },
  { selector: 'node.dim', style: { opacity: 0.35 } },
];

/** Places the two groups apart: committed nodes on a circle at the left, staged ones on a grid at the right. */
function positions(nodes: GraphNode[]): Map<string, { x: number; y: number }> {
  const out = new Map<string, { x: number; y: number }>();
  const committed = nodes.filter((n) => n.kind !== 'pending');
  const pending = nodes.filter((n) => n.kind === 'pending');
  const r = Math.max(60, committed.length * 14);
  committed.forEach((n, i) => {
    const a = (2 * Math.PI * i) / Math.max(1, committed.length);
    out.set(n.id, { x: r * Math.cos(a), y: r * Math.sin(a) });
  });
  const cols = Math.max(1, Math.ceil(Math.sqrt(pending.length)));
  pending.forEach((n, i) => {
    out.set(n.id, { x: r + 160 + (i % cols) * 110, y: -r / 2 + Math.floor(i / cols) * 70 });
  });
  return out;
}

export function drawDelta(container: HTMLElement, nodes: GraphNode[], edges: GraphEdge[]): DeltaPicture {
  const at = positions(nodes);
  const hasCommitted = nodes.some((n) => n.kind !== 'pending');
  const hasPending = nodes.some((n) => n.kind === 'pending');
  const known = new Set(nodes.map((n) => n.id));
  const cy = cytoscape({
    container,
    style: STYLE,
    layout: { name: 'preset' },
    wheelSensitivity: 0.3,
    elements: [
      ...(hasCommitted ? [{ data: { id: '__committed', label: 'committed' }, classes: 'side' }] : []),
      ...(hasPending ? [{ data: { id: '__pending', label: 'staged in this delta' }, classes: 'side' }] : []),
      ...nodes.map((n) => ({
        data: { id: n.id, label: n.label, parent: n.kind === 'pending' ? '__pending' : '__committed' },
        position: at.get(n.id)!,
        classes: n.kind,
      })),
      ...edges
        .filter((e) => known.has(e.from) && known.has(e.to))
        .map((e) => ({
          data: { id: `e:${e.id}`, source: e.from, target: e.to, type: e.type },
          classes: e.pending ? 'pending' : '',
        })),
    ],
  });
  cy.fit(undefined, 20);
  // What the picture holds, for people using assistive technology and for the browser tests.
  const describe = (highlighted: string[]) => {
    container.dataset.pending = String(nodes.filter((n) => n.kind === 'pending').length);
    container.dataset.committed = String(nodes.filter((n) => n.kind !== 'pending').length);
    container.dataset.edges = String(cy.edges().length);
    container.dataset.highlighted = highlighted.join(' ');
  };
  describe([]);
  return {
    highlight(ids) {
      cy.nodes().removeClass('hl dim');
      const found = ids.filter((id) => known.has(id));
      if (found.length > 0) {
        cy.nodes()
          .not('.side')
          .forEach((n) => {
            n.addClass(found.includes(n.id()) ? 'hl' : 'dim');
          });
      }
      describe(found);
    },
    destroy() {
      cy.destroy();
    },
  };
}
