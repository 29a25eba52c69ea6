// The review console's loops-and-syncs page for connection syncs, driven in headless Chromium: a sync of
// a stand-in JSON API (on loopback) is shown while it runs and after, with its events, its workflow in
// the Temporal UI and the delta it staged. Screenshots: .data/screenshots/console-sync-*.png.
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import { newTenant } from '../support/api.js';
import { jsonApi, makeIssues, startStandIn, type StandIn } from '../connections/standins.js';
import { createConnection, jsonConnection } from '../connections/support.js';
import { contentOf, shot, signedIn, skipWithoutChromium, textOf, usePages } from './browser.js';

/** Where the test says the Temporal Web UI is (the test service starts none). */
const TEMPORAL_UI = 'http://temporal-ui.test:8233';

describe('review console: connection syncs', function () {
  this.timeout(300_000);
  const pages = usePages();
  let upstream: StandIn | undefined;
  afterEach(async function () {
    if (upstream) {
      upstream.holdPage = null;
      await upstream.close();
      upstream = undefined;
    }
  });

  /** Clicks in the page itself: the page re-reads a running sync every few seconds and redraws its row. */
  const clickIn = (page: Page, selector: string) =>
    page
      .waitForSelector(selector)
      .then(() => page.evaluate((sel) => document.querySelector<HTMLElement>(sel)!.click(), selector));
  const textHas = (page: Page, selector: string, pattern: RegExp) =>
    page.waitForFunction(
      (sel, source) => new RegExp(source).test(document.querySelector<HTMLElement>(sel)?.innerText ?? ''),
      { timeout: 120_000 },
      selector,
      pattern.source,
    );

  it('a running sync shows its progress as events, then completes in place; it links to its Temporal workflow and opens the delta it staged', async function () {
    skipWithoutChromium(pages.browser, this);
    upstream = await startStandIn(jsonApi);
    upstream.issues = makeIssues(7); // three records a page: pages 1, 2 and 3
    upstream.holdPage = 3;
    const t = await newTenant();
    const connectionId = await createConnection(t, jsonConnection(upstream, { name: 'widget tracker' }));
    const started = await t.post(`/v1/connections/${connectionId}/sync`, {});
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const syncId = String(started.body.sync_id);
    const deltaId = String(started.body.delta_id);
    const deadline = Date.now() + 120_000;
    while (!upstream.requests.some((r) => r.query.get('page') === '3')) {
      if (Date.now() > deadline) throw new Error('page 3 was never asked for');
      await new Promise((r) => setTimeout(r, 100));
    }

    const { page, violations } = await signedIn(pages.browser, t.key, {
      settings: { temporal_ui: TEMPORAL_UI, temporal_namespace: 'default' },
    });
    pages.current = page;
    await page.click('#nav-activity');
    const row = `#syncs tr[data-sync="${syncId}"]`;
    await page.waitForSelector(`${row}[data-status="running"]`);
    assert.match(await textOf(page, row), /widget tracker \(http_json\)/);
    assert.match(await textOf(page, '#activity-live'), /running: read again/);
    // Its progress: the events of its workflow so far, the pages it fetched and staged.
    await clickIn(page, `${row} td.events button`);
    await textHas(page, `${row} .event-list`, /Staged page 2: 3 created, 0 updated, 0 unchanged/);
    await textHas(page, row, /2 pages · 6 seen, \+6/);
    await shot(page, 'sync-running');

    upstream.holdPage = null;
    upstream.release();
    // Read again while it runs, in place: completed, with its last events (the opened list stays open).
    await page.waitForSelector(`${row}[data-status="completed"]`, { timeout: 120_000 });
    await textHas(page, row, /3 pages · 7 seen, \+7 ~0 =0/);
    await textHas(page, `${row} .event-list`, /Sync completed after 3 page\(s\): 7 created/);
    assert.match(await textOf(page, row), /delta \(staged\)/);
    await page.waitForFunction(() => document.querySelector('#activity')?.getAttribute('data-running') === 'false');
    assert.equal(await textOf(page, '#activity-live'), '', 'no more reads once nothing runs');

    const sync = (await t.get(`/v1/connections/${connectionId}/syncs/${syncId}`)).body.sync;
    assert.equal(sync.workflow_id, `sync-${connectionId}`);
    const temporal = await page.$eval(`${row} a.temporal`, (a) => ({
      href: (a as HTMLAnchorElement).href,
      target: (a as HTMLAnchorElement).target,
      rel: (a as HTMLAnchorElement).rel,
    }));
    assert.deepEqual(temporal, {
      href: `${TEMPORAL_UI}/namespaces/default/workflows/${encodeURIComponent(sync.workflow_id)}`,
      target: '_blank',
      rel: 'noopener noreferrer',
    });
    await shot(page, 'sync-activity');

    await clickIn(page, `${row} a.delta`);
    await page.waitForFunction((id) => location.hash === `#/delta/${id}`, {}, deltaId);
    await page.waitForSelector('#diff .change');
    const head = await textOf(page, '.delta-head');
    assert.match(head, new RegExp(deltaId));
    assert.match(head, /connection_sync/);
    assert.match(head, /staged/);
    const documents = await page.$$eval(
      '#diff .change.create_node .labels',
      (els) => els.filter((e) => e.textContent?.split(':').includes('Document')).length,
    );
    assert.equal(documents, 7, 'the seven records, staged as documents');
    const diff = await contentOf(page, '#diff');
    for (let n = 1; n <= 7; n++) assert.match(diff, new RegExp(`Issue ${n}: widget`), `record ${n} in the diff`);
    await page.waitForSelector('#graph canvas');
    assert.ok(Number(await page.$eval('#graph', (el) => (el as HTMLElement).dataset.pending)) >= 7, 'drawn as staged');
    await shot(page, 'sync-delta');
    assert.deepEqual(violations, []);
  });

  it('a key without connections:read sees no syncs section', async function () {
    skipWithoutChromium(pages.browser, this);
    const t = await newTenant();
    const loopsOnly = await t.keyWith({ scopes: ['loops:read', 'deltas:read'] });
    const { page } = await signedIn(pages.browser, loopsOnly);
    pages.current = page;
    await page.click('#nav-activity');
    await page.waitForSelector('#activity h3');
    assert.equal(await page.$('#syncs'), null);
    assert.doesNotMatch(await textOf(page, '#activity'), /Connection syncs/);
    assert.match(await textOf(page, '#activity'), /No loops yet/);
  });
});
