import assert from 'node:assert/strict';
import { newTenant, type Tenant } from '../support/api.js';
import { startStandIn, type StandIn } from './standins.js';
import { createConnection, deltaChanges, post, syncNow } from './support.js';

interface NotionPage {
  id: string;
  title: string;
  edited: string;
  lines: string[];
}

function notion(pages: NotionPage[]) {
  return (req: { method?: string }, url: URL, body: string) => {
    if (url.pathname === '/v1/users/me')
      return { status: 200, body: { object: 'user', id: 'bot-1', name: 'Sync bot', type: 'bot' } };
    if (url.pathname === '/v1/search' && req.method === 'POST') {
      const request = JSON.parse(body) as { start_cursor?: string; sort?: { timestamp: string } };
      const sorted = [...pages].sort((a, b) => a.edited.localeCompare(b.edited));
      const start = request.start_cursor ? Number(request.start_cursor) : 0;
      const slice = sorted.slice(start, start + 2);
      const more = start + 2 < sorted.length;
      return {
        status: 200,
        body: {
          results: slice.map((p) => ({
            object: 'page',
            id: p.id,
            url: `https://notion.test/${p.id}`,
            last_edited_time: p.edited,
            properties: { Name: { type: 'title', title: [{ plain_text: p.title }] } },
          })),
          has_more: more,
          next_cursor: more ? String(start + 2) : null,
        },
      };
    }
    const blocks = /^\/v1\/blocks\/([^/]+)\/children$/.exec(url.pathname);
    if (blocks) {
      const page = pages.find((p) => p.id === blocks[1]);
      return {
        status: 200,
        body: {
          results: (page?.lines ?? []).map((l) => ({
            type: 'paragraph',
            paragraph: { rich_text: [{ plain_text: l }] },
          })),
          has_more: false,
          next_cursor: null,
        },
      };
    }
    return { status: 404, body: {} };
  };
}

const RSS = `<?xml version="1.0"?><rss version="2.0"><channel><title>Release notes</title>
<item><guid isPermaLink="false">rel-1</guid><title>Version 1 &amp; friends</title><description>&lt;p&gt;The &lt;b&gt;quantum&lt;/b&gt; release.&lt;/p&gt;</description><pubDate>Mon, 05 Jan 2026 10:00:00 GMT</pubDate></item>
<item><guid>rel-2</guid><title>Version 2</title><description>Faster widgets.</description><pubDate>Tue, 06 Jan 2026 10:00:00 GMT</pubDate></item>
</channel></rss>`;
const ATOM = `<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Team blog</title>
<entry><id>urn:post:1</id><title>Hello</title><link href="https://blog.test/hello"/><updated>2026-01-07T00:00:00Z</updated><summary>First post about graphs.</summary></entry></feed>`;

describe('connectors against stand-ins: notion_pages, feed, http_json cursor pages, submission route', function () {
  this.timeout(180_000);
  let t: Tenant;
  const servers: StandIn[] = [];
  before(async () => {
    t = await newTenant();
  });
  after(async () => {
    for (const s of servers) await s.close();
  });

  it('notion_pages: pages found by search (all result pages) land as documents with their block text', async () => {
    const pages: NotionPage[] = [
      {
        id: 'p-1',
        title: 'Runbook',
        edited: '2026-01-01T00:00:00.000Z',
        lines: ['Restart the reactor.', 'Check the gauges.'],
      },
      { id: 'p-2', title: 'Roadmap', edited: '2026-01-02T00:00:00.000Z', lines: ['Ship the gizmo.'] },
      { id: 'p-3', title: 'Glossary', edited: '2026-01-03T00:00:00.000Z', lines: ['Widget: a thing.'] },
    ];
    const s = await startStandIn(notion(pages));
    servers.push(s);
    const tested = await post(t, '/v1/connections/test', {
      kind: 'notion_pages',
      config: { base_url: s.url },
      secret: { token: s.token },
    });
    assert.equal(tested.body.ok, true);
    assert.equal(tested.body.identity.name, 'Sync bot');
    const id = await createConnection(t, {
      name: 'wiki',
      kind: 'notion_pages',
      config: { base_url: s.url },
      secret: { token: s.token },
    });
    const sync = await syncNow(t, id);
    assert.equal(sync.status, 'completed', JSON.stringify(sync));
    assert.equal(sync.pages, 2);
    assert.equal(sync.records.created, 3);
    const changes = await deltaChanges(t, sync.delta_id);
    const runbook = changes.find((c) => c.op === 'create_node' && c.properties.external_id === 'p-1');
    assert.equal(runbook?.properties.title, 'Runbook');
    assert.ok(
      changes.some(
        (c) =>
          c.op === 'create_node' &&
          c.labels?.includes('Chunk') &&
          String(c.properties.text).includes('Restart the reactor.'),
      ),
    );
    assert.equal(s.requests.find((r) => r.path === '/v1/search')?.authorization, `Bearer ${s.token}`);
  });

  it('feed: RSS items and Atom entries parsed by the XML library (entities and HTML decoded)', async () => {
    const rss = await startStandIn((_req, url) =>
      url.pathname === '/feed.xml' ? { status: 200, body: RSS } : { status: 200, body: ATOM },
    );
    servers.push(rss);
    const id = await createConnection(t, { name: 'releases', kind: 'feed', config: { url: `${rss.url}/feed.xml` } });
    const sync = await syncNow(t, id);
    assert.equal(sync.records.created, 2, JSON.stringify(sync));
    const changes = await deltaChanges(t, sync.delta_id);
    const first = changes.find((c) => c.op === 'create_node' && c.properties.external_id === 'rel-1');
    assert.equal(first?.properties.title, 'Version 1 & friends');
    assert.equal(first?.properties.external_updated_at, '2026-01-05T10:00:00.000Z');
    assert.ok(
      changes.some((c) => c.labels?.includes('Chunk') && /The quantum release\./.test(String(c.properties.text))),
    );
    const atom = await createConnection(t, {
      name: 'blog',
      kind: 'feed',
      config: { url: `${rss.url}/atom.xml` },
      secret: { token: rss.token },
    });
    const atomSync = await syncNow(t, atom);
    assert.equal(atomSync.records.created, 1);
    assert.equal(rss.requests.at(-1)?.authorization, `Bearer ${rss.token}`, 'a feed token goes in the header');
  });

  it('http_json with cursor pages into the submission route: submissions with source_connection_id and SYNCED_FROM', async () => {
    const items = Array.from({ length: 5 }, (_, i) => ({
      key: `k${i}`,
      label: `Ticket ${i}`,
      at: `2026-01-0${i + 1}T00:00:00Z`,
    }));
    const s = await startStandIn((_req, url) => {
      const from = Number(url.searchParams.get('after') ?? 0);
      const slice = items.slice(from, from + 2);
      return { status: 200, body: { rows: slice, next: from + 2 < items.length ? String(from + 2) : null } };
    });
    servers.push(s);
    const id = await createConnection(t, {
      name: 'tickets',
      kind: 'http_json',
      secret: { token: s.token },
      target: { route: 'submission' },
      apply_policy: 'apply_if_safe',
      config: {
        base_url: s.url,
        path: '/tickets',
        records_path: 'rows',
        id_field: 'key',
        title_field: 'label',
        updated_field: 'at',
        pagination: { type: 'cursor', param: 'after', cursor_path: 'next' },
      },
    });
    const sync = await syncNow(t, id);
    assert.equal(sync.pages, 3);
    assert.equal(sync.records.created, 5);
    assert.equal(
      sync.apply_outcome,
      'applied_safe',
      'apply_if_safe applied a SafeToAct delta through the guarded apply',
    );
    assert.equal(sync.delta_status, 'applied');
    const changes = await deltaChanges(t, sync.delta_id);
    const submissions = changes.filter((c) => c.op === 'create_node' && c.labels?.includes('Submission'));
    assert.equal(submissions.length, 5);
    assert.ok(submissions.every((c) => c.properties.source_connection_id === id));
    assert.equal(changes.filter((c) => c.type === 'SYNCED_FROM').length, 5);
    assert.deepEqual(
      s.requests.map((r) => r.query.get('after')),
      [null, '2', '4'],
    );
  });
});
