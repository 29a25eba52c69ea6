// The review console: sign in with an API key (held in memory only), then the queue of staged deltas,
// a delta with its preflight verdict, findings and diff, and a memory with its history. Everything it
// shows comes from the public /v1 API; every graph value is rendered as text through h().
import { api, errorText, signIn, signOut, whenRetrying } from './api.js';
import { h, mount, show, type Child } from './dom.js';
import { drawDelta, type DeltaPicture, type GraphEdge, type GraphNode } from './graph.js';
import { renderActivity } from './activity.js';
import { ago, nodeHref, renderNode, renderSearch, type Settings, type Shell } from './views.js';

interface Delta {
  id: string;
  status: string;
  origin: string;
  summary: string;
  change_count: number;
  created_by: string;
  created_at: string;
  reason: string | null;
  changes?: Change[];
  changes_truncated?: boolean;
}
interface Change {
  seq: number;
  change_id: string;
  op: string;
  node_id: string | null;
  labels: string[] | null;
  properties: Record<string, unknown> | null;
  relationship_id: string | null;
  type: string | null;
  from: string | null;
  to: string | null;
  set?: { key: string; value: unknown; previous: unknown }[];
}
interface Finding {
  check: string;
  severity: string;
  message: string;
  node_ids: string[];
  relationship_ids: string[];
  evidence: Record<string, unknown>;
}
interface Verdict {
  disposition: 'SafeToAct' | 'ReviewRequired' | 'Blocked';
  findings: Finding[];
}
interface Session {
  project: { id: string; name: string | null };
  key: { id: string; scopes: string[] };
}

const root = document.getElementById('app')!;
let session: Session | null = null;
/** Preflight verdicts cached per delta and the graph state it was asked in (the newest delta seen). */
const verdicts = new Map<string, Verdict>();
let graphState = '';

const can = (scope: string) => !!session?.key.scopes.includes(scope);
let settings: Settings = { temporal_ui: null, temporal_namespace: 'default' };
const shell: Shell = { frame: (main) => frame(main), can };
let picture: DeltaPicture | null = null;

function route(): void {
  picture?.destroy();
  picture = null;
  if (!session) return renderSignIn();
  const [, view, id] = location.hash.split('/');
  const arg = id ? decodeURIComponent(id) : '';
  if (view === 'delta' && arg) void renderDelta(arg);
  else if ((view === 'memory' || view === 'node' || view === 'entity') && arg) void renderNode(shell, arg);
  else if (view === 'activity') void renderActivity(shell, settings);
  else if (view === 'search') void renderSearch(shell, arg);
  else void renderQueue();
}
window.addEventListener('hashchange', route);

// A 503 (a dependency down) is retried with backoff; the page says so until an answer comes.
const retrying = h('div', { class: 'retrying', id: 'retrying', role: 'alert', hidden: true });
document.body.append(retrying);
whenRetrying((r) => {
  retrying.hidden = r === null;
  retrying.textContent = r ? `Service unavailable, retrying in ${r.waitSeconds} s (attempt ${r.attempt})…` : '';
});

function frame(main: Child): void {
  mount(
    root,
    h(
      'header',
      { class: 'top' },
      h('a', { class: 'brand', href: '#/queue' }, 'Review console'),
      h(
        'nav',
        {},
        h('a', { href: '#/queue', id: 'nav-queue' }, 'Queue'),
        h('a', { href: '#/activity', id: 'nav-activity' }, 'Loops & syncs'),
      ),
      searchBox(),
      h('span', { class: 'project' }, session?.project.name ?? '', ' ', h('code', {}, session?.project.id ?? '')),
      h(
        'span',
        { class: 'scopes', title: session?.key.scopes.join('\n') ?? '' },
        `key ${session?.key.id ?? ''} · ${session?.key.scopes.length ?? 0} scopes`,
        can('deltas:apply') ? '' : ' · read-only (no deltas:apply)',
      ),
      h(
        'button',
        {
          class: 'link',
          onclick: () => {
            signOut();
            session = null;
            verdicts.clear();
            location.hash = '';
            renderSignIn();
          },
        },
        'Sign out',
      ),
    ),
    h('main', {}, main),
  );
}

function searchBox(): HTMLElement {
  const [, view, q] = location.hash.split('/');
  const input = h('input', {
    type: 'search',
    id: 'search',
    placeholder: 'Search the graph',
    'aria-label': 'Search the graph',
  }) as HTMLInputElement;
  input.value = view === 'search' && q ? decodeURIComponent(q) : '';
  return h(
    'form',
    {
      class: 'search',
      role: 'search',
      onsubmit: (e: Event) => {
        e.preventDefault();
        const query = input.value.trim();
        if (query) location.hash = `#/search/${encodeURIComponent(query)}`;
      },
    },
    input,
  );
}

function renderSignIn(message?: string): void {
  const input = h('input', {
    type: 'password',
    id: 'key',
    autocomplete: 'off',
    placeholder: 'gks_…',
    'aria-label': 'API key',
  }) as HTMLInputElement;
  const form = h(
    'form',
    {
      class: 'signin',
      onsubmit: (e: Event) => {
        e.preventDefault();
        signIn(input.value.trim());
        api<Session>('GET', '/v1/project')
          .then((s) => {
            session = s;
            route();
          })
          .catch((err: unknown) => {
            signOut();
            renderSignIn(errorText(err));
          });
      },
    },
    h('h1', {}, 'Review console'),
    h('p', { class: 'muted' }, 'Sign in with an API key. It stays in this tab’s memory only and is gone on reload.'),
    input,
    h('button', { type: 'submit', id: 'signin' }, 'Sign in'),
    message ? h('p', { class: 'error', role: 'alert' }, message) : null,
  );
  mount(root, form);
  input.focus();
}

const filters = { origin: '', actor: '', age: '', disposition: '' };

async function renderQueue(): Promise<void> {
  frame(h('p', { class: 'muted' }, 'Loading the queue…'));
  if (!can('deltas:read')) return frame(h('p', { class: 'muted' }, 'This key cannot read deltas (deltas:read).'));
  const deltas: Delta[] = [];
  let cursor: string | null = null;
  try {
    do {
      const q: string = `/v1/deltas?status=staged&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page: { deltas: Delta[]; next_cursor?: string | null } = await api('GET', q);
      deltas.push(...page.deltas);
      cursor = page.next_cursor ?? null;
    } while (cursor && deltas.length < 5000);
  } catch (e) {
    return frame(h('p', { class: 'error' }, errorText(e)));
  }
  graphState = deltas[0]?.id ?? '';
  const body = h('tbody');
  const count = h('span', { class: 'count' });
  const draw = () => {
    const maxAgeMs = filters.age ? Number(filters.age) * 3600_000 : Infinity;
    const rows = deltas.filter(
      (d) =>
        (!filters.origin || d.origin === filters.origin) &&
        (!filters.actor || d.created_by.includes(filters.actor)) &&
        Date.now() - Date.parse(d.created_at) <= maxAgeMs &&
        (!filters.disposition || verdicts.get(vkey(d.id))?.disposition === filters.disposition),
    );
    count.textContent = `${rows.length} of ${deltas.length} staged`;
    body.replaceChildren(...rows.map(queueRow));
  };
  const origins = [...new Set(deltas.map((d) => d.origin))].sort();
  const select = (name: keyof typeof filters, options: [string, string][]) =>
    h(
      'select',
      {
        id: `filter-${name}`,
        onchange: (e: Event) => {
          filters[name] = (e.target as HTMLSelectElement).value;
          draw();
        },
      },
      options.map(([v, label]) => {
        const o = h('option', { value: v }, label) as HTMLOptionElement;
        o.selected = filters[name] === v;
        return o;
      }),
    );
  const actor = h('input', {
    id: 'filter-actor',
    placeholder: 'actor (key id)',
    value: filters.actor,
  }) as HTMLInputElement;
  actor.addEventListener('input', () => {
    filters.actor = actor.value.trim();
    draw();
  });
  frame([
    h(
      'div',
      { class: 'toolbar' },
      h('h2', {}, 'Staged deltas'),
      count,
      select('origin', [['', 'any origin'], ...origins.map((o): [string, string] => [o, o])]),
      actor,
      select('age', [
        ['', 'any age'],
        ['1', '< 1 hour'],
        ['24', '< 1 day'],
        ['168', '< 1 week'],
      ]),
      select('disposition', [
        ['', 'any verdict'],
        ['SafeToAct', 'SafeToAct'],
        ['ReviewRequired', 'ReviewRequired'],
        ['Blocked', 'Blocked'],
      ]),
      can('preflight:run')
        ? h(
            'button',
            {
              id: 'preflight-all',
              onclick: async () => {
                for (const d of deltas) await preflight(d.id).catch(() => undefined);
                draw();
              },
            },
            'Run preflight on all',
          )
        : null,
      h('button', { class: 'link', onclick: () => void renderQueue() }, 'Refresh'),
    ),
    h(
      'table',
      { class: 'queue' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['Created', 'Origin', 'Summary', 'Changes', 'Actor', 'Preflight'].map((t) => h('th', {}, t)),
        ),
      ),
      body,
    ),
  ]);
  draw();
}

const vkey = (id: string) => `${id}@${graphState}`;

async function preflight(id: string): Promise<Verdict> {
  const cached = verdicts.get(vkey(id));
  if (cached) return cached;
  const v = await api<Verdict>('POST', '/v1/preflight/audit', { delta_id: id });
  verdicts.set(vkey(id), v);
  return v;
}

function badge(disposition: string): HTMLElement {
  return h('span', { class: `badge ${disposition}` }, disposition);
}

function queueRow(d: Delta): HTMLElement {
  const v = verdicts.get(vkey(d.id));
  const cell = h('td', { class: 'verdict' });
  if (v) cell.append(badge(v.disposition));
  else if (can('preflight:run'))
    cell.append(
      h(
        'button',
        {
          class: 'small',
          onclick: (e: Event) => {
            e.stopPropagation();
            cell.replaceChildren('…');
            preflight(d.id)
              .then((r) => cell.replaceChildren(badge(r.disposition)))
              .catch((err: unknown) => cell.replaceChildren(h('span', { class: 'error' }, errorText(err))));
          },
        },
        'preflight',
      ),
    );
  return h(
    'tr',
    { class: 'row', 'data-delta': d.id, onclick: () => (location.hash = `#/delta/${encodeURIComponent(d.id)}`) },
    h('td', { class: 'time', title: d.created_at }, ago(d.created_at)),
    h('td', {}, h('span', { class: `origin o-${d.origin}` }, d.origin)),
    h('td', { class: 'summary' }, h('a', { href: `#/delta/${encodeURIComponent(d.id)}` }, d.summary || d.id)),
    h('td', { class: 'num' }, String(d.change_count)),
    h('td', {}, h('code', {}, d.created_by)),
    cell,
  );
}

function sizeCounts(changes: Change[]): string {
  const n = (op: string) => changes.filter((c) => c.op === op).length;
  return (
    `nodes +${n('create_node')} ~${n('update_node')} −${n('delete_node')} · ` +
    `relationships +${n('create_relationship')} −${n('delete_relationship')}`
  );
}

async function renderDelta(id: string): Promise<void> {
  frame(h('p', { class: 'muted' }, 'Loading the delta…'));
  let delta: Delta;
  try {
    delta = (await api<{ delta: Delta }>('GET', `/v1/deltas/${encodeURIComponent(id)}`)).delta;
  } catch (e) {
    return frame(h('p', { class: 'error' }, errorText(e)));
  }
  const changes = delta.changes ?? [];
  const verdictBox = h('section', { class: 'verdict-box', id: 'verdict' });
  const diff = h('section', { class: 'diff', id: 'diff' }, h('h3', {}, 'Changes'), changes.map(changeRow));
  const actions = h('section', { class: 'actions', id: 'actions' });
  const outcome = h('p', { class: 'outcome', id: 'outcome', role: 'status' });
  let verdict: Verdict | null = null;

  const graphBox = h('div', { class: 'graph', id: 'graph', role: 'img', 'aria-label': 'The delta as a graph' });
  const highlight = (ids: string[]) => {
    picture?.highlight(ids);
    for (const el of diff.querySelectorAll('.hl')) el.classList.remove('hl');
    for (const nid of ids)
      for (const el of diff.querySelectorAll(`[data-nodes~="${CSS.escape(nid)}"]`)) el.classList.add('hl');
    diff.querySelector('.hl')?.scrollIntoView({ block: 'nearest' });
  };

  const drawVerdict = () => {
    if (delta.status !== 'staged') {
      verdictBox.replaceChildren(
        h('p', { class: 'muted' }, `This delta is ${delta.status}; preflight only audits staged deltas.`),
      );
      return;
    }
    if (!verdict) {
      verdictBox.replaceChildren(
        can('preflight:run')
          ? h(
              'button',
              {
                id: 'run-preflight',
                onclick: () => {
                  verdictBox.replaceChildren('Running preflight…');
                  preflight(delta.id)
                    .then((v) => {
                      verdict = v;
                      drawVerdict();
                      drawActions();
                      void drawPicture(graphBox, delta.id, changes, findingNodes(v));
                    })
                    .catch((e: unknown) => verdictBox.replaceChildren(h('p', { class: 'error' }, errorText(e))));
                },
              },
              'Run preflight',
            )
          : h('p', { class: 'muted' }, 'This key cannot run preflight (preflight:run).'),
      );
      return;
    }
    verdictBox.replaceChildren(
      h('h3', {}, 'Preflight ', badge(verdict.disposition)),
      verdict.findings.length === 0 ? h('p', { class: 'muted' }, 'No findings.') : '',
      h(
        'ul',
        { class: 'findings' },
        verdict.findings.map((f) => {
          const li = h(
            'li',
            {
              class: `finding ${f.severity}`,
              tabindex: '0',
              onclick: () => {
                for (const el of verdictBox.querySelectorAll('.finding.selected')) el.classList.remove('selected');
                li.classList.add('selected');
                highlight(f.node_ids);
              },
            },
            h('span', { class: `sev ${f.severity}` }, f.severity),
            h('strong', {}, f.check),
            ' ',
            f.message,
            h(
              'div',
              { class: 'evidence' },
              Object.entries(f.evidence).map(([k, v]) => h('span', {}, `${k}=`, h('code', {}, show(v)))),
              f.node_ids.map((n) => h('span', { class: 'node-ref' }, h('code', {}, n))),
            ),
          );
          return li;
        }),
      ),
    );
  };

  const act = async (verb: 'apply' | 'reject' | 'revert', body: Record<string, string>) => {
    outcome.textContent = `${verb}…`;
    try {
      delta = (await api<{ delta: Delta }>('POST', `/v1/deltas/${encodeURIComponent(delta.id)}/${verb}`, body)).delta;
      outcome.textContent = `Delta ${delta.status}.`;
      outcome.className = 'outcome ok';
      status.replaceChildren(h('span', { class: `status ${delta.status}` }, delta.status));
      verdicts.delete(vkey(delta.id));
      drawVerdict();
      drawActions();
    } catch (e) {
      outcome.textContent = errorText(e);
      outcome.className = 'outcome error';
    }
  };

  const drawActions = () => {
    actions.replaceChildren();
    if (!can('deltas:apply')) return;
    if (delta.status === 'staged') {
      const needsReason = !verdict || verdict.disposition !== 'SafeToAct';
      const override = h('input', {
        id: 'override-reason',
        placeholder: needsReason ? 'Reason for applying without a SafeToAct verdict (required)' : 'Reason (optional)',
      }) as HTMLInputElement;
      const apply = h(
        'button',
        {
          id: 'apply',
          class: 'primary',
          onclick: () => {
            const reason = override.value.trim();
            if (needsReason && reason.length < 3) {
              outcome.textContent = 'Give the reason for applying: the verdict is not SafeToAct.';
              outcome.className = 'outcome error';
              override.focus();
              return;
            }
            void act('apply', reason ? (needsReason ? { override_reason: reason } : { reason }) : {});
          },
        },
        'Apply',
      );
      const rejectReason = h('input', { id: 'reject-reason', placeholder: 'Reason for rejecting' }) as HTMLInputElement;
      const reject = h(
        'button',
        {
          id: 'reject',
          class: 'danger',
          onclick: () => {
            const reason = rejectReason.value.trim();
            if (!reason) {
              outcome.textContent = 'Give the reason for rejecting.';
              outcome.className = 'outcome error';
              rejectReason.focus();
              return;
            }
            void act('reject', { reason });
          },
        },
        'Reject',
      );
      actions.append(h('div', { class: 'act' }, override, apply), h('div', { class: 'act' }, rejectReason, reject));
    } else if (delta.status === 'applied') {
      const reason = h('input', { id: 'revert-reason', placeholder: 'Reason for reverting' }) as HTMLInputElement;
      actions.append(
        h(
          'div',
          { class: 'act' },
          reason,
          h(
            'button',
            { id: 'revert', class: 'danger', onclick: () => void act('revert', { reason: reason.value.trim() }) },
            'Revert',
          ),
        ),
      );
    }
  };

  const status = h('span', {}, h('span', { class: `status ${delta.status}` }, delta.status));
  frame([
    h('p', {}, h('a', { href: '#/queue' }, '← Queue')),
    h(
      'div',
      { class: 'delta-head' },
      h('h2', {}, delta.summary || delta.id),
      status,
      h(
        'p',
        { class: 'muted' },
        h('code', {}, delta.id),
        ` · ${delta.origin} · by `,
        h('code', {}, delta.created_by),
        ` · ${delta.created_at} · `,
        h('span', { id: 'size' }, sizeCounts(changes)),
        delta.changes_truncated ? ' · changes truncated' : '',
      ),
      delta.reason ? h('p', {}, 'Reason: ', delta.reason) : null,
    ),
    h('div', { class: 'split' }, h('div', {}, verdictBox, actions, outcome, graphSection(graphBox)), diff),
  ]);
  const cached = verdicts.get(vkey(delta.id));
  if (cached) verdict = cached;
  drawVerdict();
  drawActions();
  void drawPicture(graphBox, delta.id, changes, cached ? findingNodes(cached) : []);
}

function nodeLink(id: string | null): Child {
  if (!id) return '∅';
  return h('a', { href: nodeHref(id), class: 'node' }, id);
}

const findingNodes = (v: Verdict) => [...new Set(v.findings.flatMap((f) => f.node_ids))];

function graphSection(box: HTMLElement): HTMLElement {
  return h(
    'section',
    { class: 'picture' },
    h('h3', {}, 'In its neighbourhood'),
    h(
      'p',
      { class: 'legend muted' },
      h('span', { class: 'key committed' }, 'committed'),
      h('span', { class: 'key pending' }, 'staged by this delta'),
      h('span', { class: 'key updated' }, 'updated'),
      h('span', { class: 'key deleted' }, 'deleted'),
    ),
    box,
  );
}

/** Most nodes drawn: a bigger delta is listed in full in the diff, drawn in part. */
const PICTURE_LIMIT = 300;
/** Committed nodes whose neighbourhood is read (GET /v1/graph/nodes/{id}, depth 1). */
const NEIGHBOURHOODS = 8;

function nameOf(props: Record<string, unknown> | null, fallback: string): string {
  const v = props?.name ?? props?.title ?? props?.content;
  return typeof v === 'string' ? v.slice(0, 40) : fallback;
}

async function drawPicture(box: HTMLElement, deltaId: string, changes: Change[], extra: string[] = []): Promise<void> {
  const nodes = new Map<string, GraphNode>();
  const edges: GraphEdge[] = [];
  const add = (n: GraphNode) => {
    const had = nodes.get(n.id);
    if (!had || (had.kind === 'committed' && n.kind !== 'committed')) nodes.set(n.id, n);
  };
  for (const c of changes) {
    if (c.op === 'create_node' && c.node_id)
      add({ id: c.node_id, label: nameOf(c.properties, (c.labels ?? [])[0] ?? c.node_id), kind: 'pending' });
    if ((c.op === 'update_node' || c.op === 'delete_node') && c.node_id)
      add({
        id: c.node_id,
        label: nameOf(c.properties, c.node_id.slice(0, 8)),
        kind: c.op === 'update_node' ? 'updated' : 'deleted',
      });
  }
  for (const c of changes) {
    if (!c.op.endsWith('relationship') || !c.from || !c.to) continue;
    for (const end of [c.from, c.to]) if (!nodes.has(end)) add({ id: end, label: end.slice(0, 8), kind: 'committed' });
    edges.push({
      id: c.relationship_id ?? c.change_id,
      from: c.from,
      to: c.to,
      type: c.type ?? '',
      pending: c.op === 'create_relationship',
    });
  }
  // Nodes a preflight finding names beyond the delta's own (the committed near-duplicate ...).
  for (const id of extra) if (!nodes.has(id)) add({ id, label: id.slice(0, 8), kind: 'committed' });
  // The committed neighbourhood of what the delta touches that is already in the graph.
  const anchors = [...nodes.values()].filter((n) => n.kind !== 'pending').slice(0, NEIGHBOURHOODS);
  if (can('graph:read')) {
    const reads = await Promise.all(
      anchors.map((a) =>
        api<{
          node: { id: string; name: string | null; labels: string[] };
          nodes: { id: string; name: string | null; labels: string[] }[];
          edges: { id: string | null; type: string; source: string; target: string }[];
        }>('GET', `/v1/graph/nodes/${encodeURIComponent(a.id)}?limit=12`).catch(() => null),
      ),
    );
    for (const r of reads) {
      if (!r) continue;
      const centre = nodes.get(r.node.id);
      if (centre) centre.label = (r.node.name ?? r.node.labels[0] ?? centre.label).slice(0, 40);
      for (const n of r.nodes)
        if (nodes.size < PICTURE_LIMIT)
          add({ id: n.id, label: (n.name ?? n.labels[0] ?? n.id).slice(0, 40), kind: 'committed' });
      for (const e of r.edges)
        edges.push({
          id: e.id ?? `${e.source}-${e.type}-${e.target}`,
          from: e.source,
          to: e.target,
          type: e.type,
          pending: false,
        });
    }
  }
  if (location.hash !== `#/delta/${encodeURIComponent(deltaId)}` || !box.isConnected) return; // moved on meanwhile
  const drawn = [...nodes.values()].slice(0, PICTURE_LIMIT);
  if (drawn.length === 0) {
    box.replaceChildren(h('p', { class: 'muted' }, 'Nothing to draw.'));
    return;
  }
  const unique = new Map(edges.map((e) => [e.id, e]));
  picture?.destroy();
  picture = drawDelta(box, drawn, [...unique.values()]);
  if (nodes.size > PICTURE_LIMIT) box.dataset.truncated = String(nodes.size);
}

function changeRow(c: Change): HTMLElement {
  const nodes = [c.node_id, c.from, c.to].filter((x): x is string => !!x);
  const attrs: Record<string, string> = { class: `change ${c.op}` };
  // Every node the change touches (a relationship's endpoints too), for highlighting a finding's nodes.
  if (nodes.length) attrs['data-nodes'] = nodes.join(' ');
  const el = h(
    'div',
    attrs,
    h('span', { class: 'op' }, c.op.replace('_', ' ')),
    c.op.endsWith('relationship')
      ? [nodeLink(c.from), ' —', h('code', {}, c.type ?? '?'), '→ ', nodeLink(c.to)]
      : [h('code', { class: 'labels' }, (c.labels ?? []).join(':')), ' ', nodeLink(c.node_id)],
    c.properties
      ? h(
          'dl',
          { class: 'props' },
          Object.entries(c.properties).map(([k, v]) => [h('dt', {}, k), h('dd', {}, show(v))]),
        )
      : null,
    c.set?.length
      ? h(
          'dl',
          { class: 'props' },
          c.set.map((s) => [
            h('dt', {}, s.key),
            h('dd', {}, h('del', {}, show(s.previous)), ' → ', h('ins', {}, show(s.value))),
          ]),
        )
      : null,
  );
  return el;
}

fetch('/console/settings.json')
  .then((r) => r.json() as Promise<Settings>)
  .then((v) => (settings = v))
  .catch(() => undefined)
  .finally(route);
