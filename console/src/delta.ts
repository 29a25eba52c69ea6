// A delta (#/delta/<id>): its preflight verdict and findings, the diff of every change, the picture of it
// in its committed neighbourhood, and apply, reject and revert. A big delta is shown at once: its head and
// first changes from a short read, the rest of the diff appended in idle-time slices when the full read
// arrives, and the picture drawn after the first paint, never before it.
import { api, errorText, TIMED_OUT, type ApiError } from './api.js';
import { BatchedList, h, show, whenIdle, type Child } from './dom.js';
import { drawDelta, type DeltaPicture, type GraphEdge, type GraphNode } from './graph.js';
import { badge, cachedVerdict, forgetVerdict, preflight, type Change, type Delta, type Verdict } from './review.js';
import { deltaHref, nodeHref, type Shell } from './views.js';

let picture: DeltaPicture | null = null;

/** The picture of the delta left on screen: destroyed when the page changes. */
export function leaveDelta(): void {
  picture?.destroy();
  picture = null;
}

function sizeCounts(changes: Change[]): string {
  const n = (op: string) => changes.filter((c) => c.op === op).length;
  return (
    `nodes +${n('create_node')} ~${n('update_node')} −${n('delete_node')} · ` +
    `relationships +${n('create_relationship')} −${n('delete_relationship')}`
  );
}

/** Changes in the first, short read: more than a screen holds. */
const FIRST_CHANGES = 100;
/** Changes read in all (the most GET /v1/deltas/{id} gives). */
const ALL_CHANGES = 5000;
/** Changes drawn at once when they arrive; the rest in idle-time slices. */
const CHANGES_AT_ONCE = 60;

/** Each render of a delta page; an older one that is still reading draws nothing. */
let generation = 0;

export async function renderDelta(shell: Shell, id: string): Promise<void> {
  const mine = ++generation;
  const { frame, can } = shell;
  frame(h('p', { class: 'muted' }, 'Loading the delta…'));
  const path = `/v1/deltas/${encodeURIComponent(id)}`;
  let delta: Delta;
  try {
    delta = (await api<{ delta: Delta }>('GET', `${path}?changes_limit=${FIRST_CHANGES}`)).delta;
  } catch (e) {
    return frame(h('p', { class: 'error' }, errorText(e)));
  }
  if (mine !== generation || location.hash !== deltaHref(id)) return; // the reviewer moved on
  const first = delta.changes ?? [];
  // A big delta: the rest of its changes are read while the first are drawn.
  const rest: Promise<Delta> = delta.changes_truncated
    ? api<{ delta: Delta }>('GET', `${path}?changes_limit=${ALL_CHANGES}`).then((r) => r.delta)
    : Promise.resolve(delta);
  const verdictBox = h('section', { class: 'verdict-box', id: 'verdict' });
  const lit = new Set<string>();
  const changeList = h('div', { class: 'changes' });
  const changes = new BatchedList(
    changeList,
    (c: Change) => {
      const row = changeRow(c);
      if ([c.node_id, c.from, c.to].some((n) => n && lit.has(n))) row.classList.add('hl');
      return row;
    },
    200,
  );
  const more = h('p', { class: 'muted more' });
  const diff = h('section', { class: 'diff', id: 'diff' }, h('h3', {}, 'Changes'), changeList, more);
  const size = h('span', { id: 'size' });
  const actions = h('section', { class: 'actions', id: 'actions' });
  const outcome = h('p', { class: 'outcome', id: 'outcome', role: 'status' });
  let verdict: Verdict | null = null;

  const graphBox = h('div', { class: 'graph', id: 'graph', role: 'img', 'aria-label': 'The delta as a graph' });
  // The picture waits for every change and for the first paint; only the latest request draws.
  let drawing = 0;
  const paint = (extra: string[]) => {
    const turn = ++drawing;
    rest
      .then((d) =>
        whenIdle(() => {
          if (turn !== drawing) return;
          void drawPicture(graphBox, delta.id, d.changes ?? [], extra, can('graph:read'), () => turn === drawing);
        }, 300),
      )
      .catch(() => undefined); // said under the diff
  };
  const highlight = (ids: string[]) => {
    picture?.highlight(ids);
    lit.clear();
    for (const nid of ids) lit.add(nid);
    changes.flush(); // every change drawn now, so each one touching these nodes is marked
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
                      paint(findingNodes(v));
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

  const act = async (verb: Verb, body: Record<string, string>) => {
    const began = performance.now();
    const progress = () => {
      outcome.textContent = `${ACTING[verb]}… ${((performance.now() - began) / 1000).toFixed(1)} s`;
    };
    outcome.className = 'outcome busy';
    progress();
    const ticking = setInterval(progress, 100);
    const buttons = [...actions.querySelectorAll('button')];
    for (const b of buttons) b.disabled = true;
    try {
      delta = await actOn(path, verb, body);
      outcome.textContent = `Delta ${delta.status}.`;
      outcome.className = 'outcome ok';
      status.replaceChildren(h('span', { class: `status ${delta.status}` }, delta.status));
      forgetVerdict(delta.id);
      drawVerdict();
      drawActions();
    } catch (e) {
      outcome.textContent = errorText(e);
      outcome.className = 'outcome error';
      for (const b of buttons) b.disabled = false;
    } finally {
      clearInterval(ticking);
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
        size,
      ),
      delta.reason ? h('p', {}, 'Reason: ', delta.reason) : null,
    ),
    h('div', { class: 'split' }, h('div', {}, verdictBox, actions, outcome, graphSection(graphBox)), diff),
  ]);
  const cached = cachedVerdict(delta.id);
  if (cached) verdict = cached;
  drawVerdict();
  drawActions();
  // The first changes now; the rest, the size counts and the picture when the full read arrives.
  changes.onDrawn = () => (diff.dataset.drawn = String(changeList.childElementCount));
  changes.push(first, CHANGES_AT_ONCE);
  const shown = (all: Change[], truncated: boolean) => {
    size.textContent = sizeCounts(all) + (truncated ? ' · changes truncated' : '');
    diff.dataset.changes = String(all.length);
    more.textContent = truncated ? `The first ${all.length} of ${delta.change_count} changes are listed.` : '';
  };
  if (delta.changes_truncated) {
    size.textContent = `${delta.change_count} changes`;
    more.textContent = `Reading all ${delta.change_count} changes…`;
  } else shown(first, false);
  paint(cached ? findingNodes(cached) : []);
  try {
    const full = await rest;
    const all = full.changes ?? [];
    if (all !== first) {
      changes.push(all.slice(first.length));
      shown(all, !!full.changes_truncated);
    }
  } catch (e) {
    more.textContent = `The rest of the changes could not be read: ${errorText(e)}`;
    more.className = 'error more';
  }
}

type Verb = 'apply' | 'reject' | 'revert';
const ACTING: Record<Verb, string> = { apply: 'Applying', reject: 'Rejecting', revert: 'Reverting' };
const DONE: Record<Verb, string> = { apply: 'applied', reject: 'rejected', revert: 'reverted' };
/** How long the page waits for an apply, reject or revert (503 retries included) before it reads the delta back. */
const ACTION_DEADLINE_MS = 20_000;

/**
 * Applies, rejects or reverts the delta and answers it as it is now. With no answer by the deadline the page reads
 * the delta back: done, it is shown done; not done, the reviewer is told so (the action may yet finish), never left
 * waiting on a request that does not end.
 */
async function actOn(path: string, verb: Verb, body: Record<string, string>): Promise<Delta> {
  try {
    return (await api<{ delta: Delta }>('POST', `${path}/${verb}`, body, { deadlineMs: ACTION_DEADLINE_MS })).delta;
  } catch (e) {
    if ((e as Partial<ApiError>).code !== TIMED_OUT) throw e;
    const now = (await api<{ delta: Delta }>('GET', `${path}?changes_limit=0`, undefined, { deadlineMs: 10_000 }))
      .delta;
    if (now.status === DONE[verb]) return now;
    const waited = ACTION_DEADLINE_MS / 1000;
    throw {
      status: 0,
      code: TIMED_OUT,
      message:
        `No answer within ${waited} s, and the delta is still ${now.status}. The ${verb} may yet finish: ` +
        'open the delta again to see, or try again.',
    } satisfies ApiError;
  }
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

async function drawPicture(
  box: HTMLElement,
  deltaId: string,
  changes: Change[],
  extra: string[],
  readGraph: boolean,
  latest: () => boolean,
): Promise<void> {
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
  if (readGraph) {
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
  if (location.hash !== deltaHref(deltaId) || !box.isConnected || !latest()) return; // moved on meanwhile
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
