// The review console: sign in with an API key (held in memory only), the header and the routes to its
// pages: the queue (queue.ts), a delta (delta.ts), a node, search (views.ts), loops and syncs
// (activity.ts). Everything it shows comes from the public /v1 API; every graph value is rendered as text
// through h().
import { api, errorText, signIn, signOut, whenRetrying } from './api.js';
import { renderActivity } from './activity.js';
import { leaveDelta, renderDelta } from './delta.js';
import { h, mount, type Child } from './dom.js';
import { renderQueue } from './queue.js';
import { forgetVerdicts } from './review.js';
import { renderNode, renderSearch, type Settings, type Shell } from './views.js';

interface Session {
  project: { id: string; name: string | null };
  key: { id: string; scopes: string[] };
}

const root = document.getElementById('app')!;
let session: Session | null = null;

const can = (scope: string) => !!session?.key.scopes.includes(scope);
let settings: Settings = { temporal_ui: null, temporal_namespace: 'default' };
const shell: Shell = { frame: (main) => frame(main), can };

function route(): void {
  leaveDelta();
  if (!session) return renderSignIn();
  const [, view, id] = location.hash.split('/');
  const arg = id ? decodeURIComponent(id) : '';
  if (view === 'delta' && arg) void renderDelta(shell, arg);
  else if ((view === 'memory' || view === 'node' || view === 'entity') && arg) void renderNode(shell, arg);
  else if (view === 'activity') void renderActivity(shell, settings);
  else if (view === 'search') void renderSearch(shell, arg);
  else void renderQueue(shell);
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
            forgetVerdicts();
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

fetch('/console/settings.json')
  .then((r) => r.json() as Promise<Settings>)
  .then((v) => (settings = v))
  .catch(() => undefined)
  .finally(route);
