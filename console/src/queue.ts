// The queue (#/queue): the project's staged deltas, newest first, read page after page. The first page is
// drawn the moment it arrives and each later page appended as it comes (rows in batches, never one by
// one), so the reviewer sees the newest deltas at once; filters and the count always cover every delta
// read so far, and say so while more are on their way.
import { api, errorText } from './api.js';
import { BatchedList, h } from './dom.js';
import { badge, cachedVerdict, preflight, setGraphState, type Delta } from './review.js';
import { ago, deltaHref, type Shell } from './views.js';

/** The first page is small, to be drawn soon; the later ones as large as GET /v1/deltas allows. */
export const FIRST_PAGE = 50;
export const PAGE = 100;
/** Deltas read at most; a larger queue says so. */
export const MAX_DELTAS = 5000;
/** Rows drawn at once while the table holds fewer (a screenful and more); past that, rows are drawn in
 * idle-time slices, so the table is laid out a few times while pages arrive, not once per page. */
const ROWS_AT_ONCE = 100;

const filters = { origin: '', actor: '', age: '', disposition: '' };
/** Each render of the queue; an older one stops reading pages. */
let generation = 0;

export async function renderQueue(shell: Shell): Promise<void> {
  const mine = ++generation;
  shell.frame(h('p', { class: 'muted' }, 'Loading the queue…'));
  if (!shell.can('deltas:read'))
    return shell.frame(h('p', { class: 'muted' }, 'This key cannot read deltas (deltas:read).'));
  const read = (cursor: string | null, limit: number) =>
    api<{ deltas: Delta[]; next_cursor?: string | null }>(
      'GET',
      `/v1/deltas?status=staged&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
  let page: { deltas: Delta[]; next_cursor?: string | null };
  try {
    page = await read(null, FIRST_PAGE);
  } catch (e) {
    return shell.frame(h('p', { class: 'error' }, errorText(e)));
  }
  if (mine !== generation) return;
  setGraphState(page.deltas[0]?.id ?? '');

  const deltas: Delta[] = [];
  let complete = false;
  let failed = '';
  const body = h('tbody');
  const table = h(
    'table',
    { class: 'queue deltas', id: 'queue' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ['Created', 'Origin', 'Summary', 'Changes', 'Actor', 'Preflight'].map((t, i) => h('th', { class: `c${i}` }, t)),
      ),
    ),
    body,
  );
  const count = h('span', { class: 'count', id: 'queue-count' });
  // A row is made once per delta and kept: a filter change moves rows, it does not make them again.
  const made = new Map<string, HTMLElement>();
  const rowOf = (d: Delta) => made.get(d.id) ?? made.set(d.id, queueRow(shell, d)).get(d.id)!;
  const rows = new BatchedList(body, rowOf, 500);
  rows.onDrawn = () => (table.dataset.drawn = String(body.childElementCount));
  let shown = 0;
  const matches = (d: Delta) => {
    const maxAgeMs = filters.age ? Number(filters.age) * 3600_000 : Infinity;
    return (
      (!filters.origin || d.origin === filters.origin) &&
      (!filters.actor || d.created_by.includes(filters.actor)) &&
      Date.now() - Date.parse(d.created_at) <= maxAgeMs &&
      (!filters.disposition || cachedVerdict(d.id)?.disposition === filters.disposition)
    );
  };
  const tell = () => {
    count.textContent =
      `${shown} of ${deltas.length} staged` +
      (failed ? ` · the rest could not be read: ${failed}` : complete ? '' : ' · reading more…');
    table.dataset.complete = String(complete);
  };
  const add = (more: Delta[]) => {
    const matching = more.filter(matches);
    shown += matching.length;
    rows.push(matching, Math.max(0, ROWS_AT_ONCE - body.childElementCount));
    tell();
  };
  const redraw = () => {
    rows.clear();
    shown = 0;
    add(deltas);
  };

  const origins = new Set<string>();
  const originSelect = select('origin', [['', 'any origin']], redraw);
  const learnOrigins = (more: Delta[]) => {
    for (const d of more)
      if (!origins.has(d.origin)) {
        origins.add(d.origin);
        const o = h('option', { value: d.origin }, d.origin) as HTMLOptionElement;
        o.selected = filters.origin === d.origin;
        originSelect.append(o);
      }
  };
  const actor = h('input', {
    id: 'filter-actor',
    placeholder: 'actor (key id)',
    value: filters.actor,
  }) as HTMLInputElement;
  actor.addEventListener('input', () => {
    filters.actor = actor.value.trim();
    redraw();
  });
  let allRead: () => void = () => undefined;
  const everyDelta = new Promise<void>((r) => (allRead = r));
  shell.frame([
    h(
      'div',
      { class: 'toolbar' },
      h('h2', {}, 'Staged deltas'),
      count,
      originSelect,
      actor,
      select(
        'age',
        [
          ['', 'any age'],
          ['1', '< 1 hour'],
          ['24', '< 1 day'],
          ['168', '< 1 week'],
        ],
        redraw,
      ),
      select(
        'disposition',
        [
          ['', 'any verdict'],
          ['SafeToAct', 'SafeToAct'],
          ['ReviewRequired', 'ReviewRequired'],
          ['Blocked', 'Blocked'],
        ],
        redraw,
      ),
      shell.can('preflight:run')
        ? h(
            'button',
            {
              id: 'preflight-all',
              onclick: async () => {
                await everyDelta;
                for (const d of deltas) await preflight(d.id).catch(() => undefined);
                made.clear(); // rows show their new verdicts
                redraw();
              },
            },
            'Run preflight on all',
          )
        : null,
      h('button', { class: 'link', onclick: () => void renderQueue(shell) }, 'Refresh'),
    ),
    table,
  ]);

  // The first page now, each later page appended as it arrives (keyset pages: newest first throughout).
  // The next page is asked for before this one is drawn, so drawing overlaps the request.
  for (;;) {
    const cursor = page.next_cursor ?? null;
    const next = cursor && deltas.length + page.deltas.length < MAX_DELTAS ? read(cursor, PAGE) : null;
    next?.catch(() => undefined); // its failure is told when it is awaited below
    deltas.push(...page.deltas);
    learnOrigins(page.deltas);
    add(page.deltas);
    if (!next) break;
    try {
      page = await next;
    } catch (e) {
      failed = errorText(e);
      break;
    }
    if (mine !== generation || !table.isConnected) return; // the reviewer moved on
  }
  complete = true;
  tell();
  allRead();
}

function select(name: 'origin' | 'age' | 'disposition', options: [string, string][], onChange: () => void) {
  return h(
    'select',
    {
      id: `filter-${name}`,
      onchange: (e: Event) => {
        filters[name] = (e.target as HTMLSelectElement).value;
        onChange();
      },
    },
    options.map(([v, label]) => {
      const o = h('option', { value: v }, label) as HTMLOptionElement;
      o.selected = filters[name] === v;
      return o;
    }),
  );
}

function queueRow(shell: Shell, d: Delta): HTMLElement {
  const v = cachedVerdict(d.id);
  const cell = h('td', { class: 'verdict' });
  if (v) cell.append(badge(v.disposition));
  else if (shell.can('preflight:run'))
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
    { class: 'row', 'data-delta': d.id, onclick: () => (location.hash = deltaHref(d.id)) },
    h('td', { class: 'time', title: d.created_at }, ago(d.created_at)),
    h('td', {}, h('span', { class: `origin o-${d.origin}` }, d.origin)),
    h('td', { class: 'summary' }, h('a', { href: deltaHref(d.id) }, d.summary || d.id)),
    h('td', { class: 'num' }, String(d.change_count)),
    h('td', { class: 'actor' }, h('code', {}, d.created_by)),
    cell,
  );
}
