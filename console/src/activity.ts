// Loops and syncs (#/activity): running and recent loops and connection syncs with their progress (their
// events, from the workflow history), each linking to its workflow in the Temporal Web UI and to the delta
// it staged. While one is queued or running the page reads them again every few seconds, in place.
import { api, errorText } from './api.js';
import { h, mount, type Child } from './dom.js';
import { ago, deltaHref, type Settings, type Shell } from './views.js';

interface Loop {
  loop_id: string;
  kind: string;
  status: string;
  goal: string;
  iteration: number;
  max_iterations: number;
  quality: number | null;
  delta_id: string;
  workflow_id: string;
  created_at: string;
  error: string | null;
}
interface Connection {
  id: string;
  name: string;
  kind: string;
}
interface Sync {
  sync_id: string;
  connection_id: string;
  delta_id: string;
  status: string;
  pages: number;
  records: { seen: number; created: number; updated: number; unchanged: number };
  delta_status: string | null;
  workflow_id: string | null;
  created_at: string | null;
  error: string | null;
}
interface Event {
  sequence: number;
  type: string;
  summary?: string;
}

/** Seconds between reads while something runs. */
const POLL_SECONDS = 2;
/** Events shown per loop or sync: the latest ones. */
const EVENTS_SHOWN = 12;
const active = (status: string) => status === 'queued' || status === 'running';

/** Loops and syncs whose events the reviewer opened: kept open (the last list shown until the new one comes)
 * when the page reads them again. */
const opened = new Map<string, HTMLElement | null>();
/** Each render of the page; a poll of an older one stops. */
let generation = 0;

function temporalLink(settings: Settings, workflowId: string | null): Child {
  if (!workflowId) return '';
  if (!settings.temporal_ui) return h('code', { title: 'no Temporal UI known to this service' }, workflowId);
  const url =
    `${settings.temporal_ui}/namespaces/${encodeURIComponent(settings.temporal_namespace)}` +
    `/workflows/${encodeURIComponent(workflowId)}`;
  return h('a', { href: url, target: '_blank', rel: 'noopener noreferrer', class: 'temporal' }, 'workflow ↗');
}

/** The events cell: a button, or (once opened) the latest events, read again on each poll. */
function eventsCell(key: string, path: string): HTMLElement {
  const cell = h('td', { class: 'events' });
  const load = () => {
    cell.replaceChildren(opened.get(key) ?? '…');
    if (!opened.has(key)) opened.set(key, null);
    api<{ events: Event[] }>('GET', path)
      .then((r) => {
        const list = h(
          'ol',
          { class: 'event-list' },
          r.events
            .filter((e) => !e.type.startsWith('workflow_task_')) // the engine's bookkeeping, not progress
            .slice(-EVENTS_SHOWN)
            .map((e) => h('li', { value: String(e.sequence), title: e.type }, e.summary || e.type)),
        );
        opened.set(key, list);
        cell.replaceChildren(list);
      })
      .catch((e: unknown) => cell.replaceChildren(h('span', { class: 'error' }, errorText(e))));
  };
  if (opened.has(key)) load();
  else cell.append(h('button', { class: 'small', onclick: load }, 'events'));
  return cell;
}

const table = (id: string, heads: string[], rows: HTMLElement[]) =>
  h(
    'table',
    { class: 'queue', id },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        heads.map((t) => h('th', {}, t)),
      ),
    ),
    h('tbody', {}, rows),
  );

/** Reads loops and syncs and draws them into `body`; true when one is still queued or running. */
async function drawActivity(shell: Shell, settings: Settings, body: HTMLElement): Promise<boolean> {
  const parts: Child[] = [];
  let running = false;
  const reads: Promise<void>[] = [];
  let loopsPart: Child = null;
  let syncsPart: Child = null;
  if (shell.can('loops:read'))
    reads.push(
      api<{ loops: Loop[] }>('GET', '/v1/loops?limit=50')
        .then(({ loops }) => {
          running ||= loops.some((l) => active(l.status));
          loopsPart = [
            h('h3', {}, 'Loops'),
            loops.length === 0
              ? h('p', { class: 'muted' }, 'No loops yet.')
              : table(
                  'loops',
                  ['Created', 'Kind', 'Goal', 'Status', 'Progress', 'Delta', 'Temporal', 'Events'],
                  loops.map((l) => loopRow(l, settings)),
                ),
          ];
        })
        .catch((e: unknown) => void (loopsPart = h('p', { class: 'error' }, errorText(e)))),
    );
  if (shell.can('connections:read'))
    reads.push(
      (async () => {
        const { connections } = await api<{ connections: Connection[] }>('GET', '/v1/connections?limit=50');
        // Each connection's latest syncs, read side by side; shown newest first across connections.
        const lists = await Promise.all(
          connections.map((c) =>
            api<{ syncs: Sync[] }>('GET', `/v1/connections/${encodeURIComponent(c.id)}/syncs?limit=5`).then((r) =>
              r.syncs.map((y) => ({ c, y })),
            ),
          ),
        );
        const syncs = lists.flat().sort((a, b) => (b.y.created_at ?? '').localeCompare(a.y.created_at ?? ''));
        running ||= syncs.some(({ y }) => active(y.status));
        syncsPart = [
          h('h3', {}, 'Connection syncs'),
          syncs.length === 0
            ? h('p', { class: 'muted' }, 'No syncs yet.')
            : table(
                'syncs',
                ['Created', 'Connection', 'Status', 'Progress', 'Delta', 'Temporal', 'Events'],
                syncs.map(({ c, y }) => syncRow(c, y, settings)),
              ),
        ];
      })().catch((e: unknown) => void (syncsPart = h('p', { class: 'error' }, errorText(e)))),
    );
  await Promise.all(reads);
  parts.push(loopsPart, syncsPart);
  if (!shell.can('loops:read') && !shell.can('connections:read'))
    parts.push(h('p', { class: 'muted' }, 'This key reads neither loops nor connections.'));
  mount(body, ...parts);
  body.dataset.running = String(running);
  return running;
}

/** Running and recent loops and connection syncs, with their progress and links, kept current while they run. */
export async function renderActivity(shell: Shell, settings: Settings): Promise<void> {
  const mine = ++generation;
  const body = h('div', { id: 'activity' }, h('p', { class: 'muted' }, 'Loading loops and syncs…'));
  shell.frame([
    h(
      'div',
      { class: 'toolbar' },
      h('h2', {}, 'Loops and syncs'),
      h('span', { class: 'count', id: 'activity-live' }),
      h(
        'button',
        { class: 'link', id: 'activity-refresh', onclick: () => void renderActivity(shell, settings) },
        'Refresh',
      ),
    ),
    body,
  ]);
  const live = document.getElementById('activity-live')!;
  const current = () => mine === generation && body.isConnected && location.hash.startsWith('#/activity');
  let wasRunning = false;
  while (current()) {
    const running = await drawActivity(shell, settings, body);
    // Once nothing runs, one more read: the events a workflow records as it ends come just after its status.
    if ((!running && !wasRunning) || !current()) break;
    wasRunning = running;
    live.textContent = running ? `running: read again every ${POLL_SECONDS} s` : '';
    await new Promise((r) => setTimeout(r, POLL_SECONDS * 1000));
  }
  if (current()) live.textContent = '';
}

function loopRow(l: Loop, settings: Settings): HTMLElement {
  return h(
    'tr',
    { 'data-loop': l.loop_id, 'data-status': l.status },
    h('td', { class: 'time', title: l.created_at }, ago(l.created_at)),
    h('td', {}, l.kind),
    h('td', { class: 'summary' }, l.goal),
    h(
      'td',
      {},
      h('span', { class: `status ${l.status}` }, l.status),
      l.error ? h('div', { class: 'error' }, l.error) : '',
    ),
    h(
      'td',
      { class: 'progress' },
      h('progress', { max: String(l.max_iterations), value: String(l.iteration) }),
      ` ${l.iteration}/${l.max_iterations}`,
      l.quality === null ? '' : ` · quality ${l.quality.toFixed(2)}`,
    ),
    h('td', {}, h('a', { href: deltaHref(l.delta_id), class: 'delta' }, 'delta')),
    h('td', {}, temporalLink(settings, l.workflow_id)),
    eventsCell(`loop:${l.loop_id}`, `/v1/loops/${encodeURIComponent(l.loop_id)}/events?limit=1000`),
  );
}

function syncRow(c: Connection, y: Sync, settings: Settings): HTMLElement {
  const events = `/v1/connections/${encodeURIComponent(c.id)}/syncs/${encodeURIComponent(y.sync_id)}/events?limit=1000`;
  return h(
    'tr',
    { 'data-sync': y.sync_id, 'data-status': y.status },
    h('td', { class: 'time', title: y.created_at ?? '' }, ago(y.created_at)),
    h('td', {}, `${c.name} (${c.kind})`),
    h(
      'td',
      {},
      h('span', { class: `status ${y.status}` }, y.status),
      y.error ? h('div', { class: 'error' }, y.error) : '',
    ),
    h(
      'td',
      { class: 'progress' },
      `${y.pages} pages · ${y.records.seen} seen, +${y.records.created} ~${y.records.updated} =${y.records.unchanged}`,
    ),
    h(
      'td',
      {},
      h('a', { href: deltaHref(y.delta_id), class: 'delta' }, 'delta'),
      y.delta_status ? ` (${y.delta_status})` : '',
    ),
    h('td', {}, temporalLink(settings, y.workflow_id)),
    eventsCell(`sync:${y.sync_id}`, events),
  );
}
