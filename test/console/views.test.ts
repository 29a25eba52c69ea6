// The review console's graph picture, node pages, loops and syncs, search and its retry on 503, driven in
// headless Chromium against the test service (real Neo4j and Temporal). Screenshots: .data/screenshots.
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import { newTenant } from '../support/api.js';
import { harness } from '../support/harness.js';
import { GENERAL_SHAPE_ID, STORY, createDocument, waitForLoop } from '../loops/support.js';
import { shot, signedIn, skipWithoutChromium, textOf, usePages } from './browser.js';

describe('review console: picture, pages, loops, search', function () {
  this.timeout(300_000);
  const pages = usePages();

  const data = (page: Page, key: string) => page.$eval('#graph', (el, k) => (el as HTMLElement).dataset[k] ?? '', key);

  it('draws a delta in its committed neighbourhood, staged apart; selecting a finding highlights its nodes; no CSP violation', async function () {
    skipWithoutChromium(pages.browser, this);
    const t = await newTenant(0);
    const committed = await t.post('/v1/memories', { content: 'Ada prefers green tea in the morning.' });
    const staged = await t.post('/v1/memories', { content: 'ada prefers green tea in the morning', apply: false });
    const stagedId = String(staged.body.id);
    const { page, violations } = await signedIn(pages.browser, t.key);
    pages.current = page;
    await page.goto(`${harness().url}/console#/delta/${staged.body.delta_id}`);
    await page.waitForSelector('#graph canvas');
    await page.waitForFunction(() => document.querySelector<HTMLElement>('#graph')?.dataset.pending === '1');
    assert.equal(await data(page, 'committed'), '0', 'a lone staged memory touches nothing committed');
    await page.click('#run-preflight');
    await page.waitForSelector('.finding', { timeout: 180_000 });
    // The finding names the committed near-duplicate: drawn beside the staged memory, in the committed group.
    await page.waitForFunction(() => document.querySelector<HTMLElement>('#graph')?.dataset.committed === '1');
    assert.equal(await data(page, 'highlighted'), '');
    await page.click('.finding');
    await page.waitForFunction(() => !!document.querySelector<HTMLElement>('#graph')?.dataset.highlighted);
    const lit = (await data(page, 'highlighted')).split(' ').sort();
    assert.deepEqual(lit, [String(committed.body.id), stagedId].sort());
    await shot(page, 'delta-picture');
    assert.deepEqual(violations, [], 'the bundled renderer needs nothing the CSP forbids');
  });

  it("a loop's staged delta is in the queue; loops and syncs show its progress, its Temporal workflow and its delta", async function () {
    skipWithoutChromium(pages.browser, this);
    const t = await newTenant(10_000);
    const doc = await createDocument(t, STORY);
    const started = await t.post('/v1/loops', {
      kind: 'graph_extraction',
      goal: 'who works where',
      context: { source_ids: [doc] },
      schema: { shape_ids: [GENERAL_SHAPE_ID] },
    });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const loop = await waitForLoop(t, String(started.body.loop_id), 180_000);
    assert.equal(loop.status, 'completed');
    const { page } = await signedIn(pages.browser, t.key);
    pages.current = page;
    await page.waitForSelector(`tr[data-delta="${started.body.delta_id}"]`);
    assert.match(await textOf(page, `tr[data-delta="${started.body.delta_id}"]`), /loop/);
    await page.click('#nav-activity');
    const row = `#loops tr[data-loop="${started.body.loop_id}"]`;
    await page.waitForSelector(row);
    const text = await textOf(page, row);
    assert.match(text, /graph_extraction/);
    assert.match(text, /completed/);
    assert.match(text, new RegExp(`${String(loop.iteration)}/${String(loop.max_iterations)}`));
    const ui = harness().service.deps.runtime.temporalUiUrl;
    if (ui) {
      const href = await page.$eval(`${row} a.temporal`, (a) => (a as HTMLAnchorElement).href);
      assert.equal(href, `${ui}/namespaces/default/workflows/${encodeURIComponent(String(loop.workflow_id))}`);
    } else assert.match(text, new RegExp(String(loop.workflow_id)));
    await page.click(`${row} td.events button`);
    await page.waitForSelector(`${row} .event-list li`);
    await shot(page, 'activity');
    await page.click(`${row} a.delta`);
    await page.waitForSelector('#diff');
    assert.match(await textOf(page, '.delta-head'), /loop/);
    await page.waitForSelector('#graph canvas');
    assert.ok(Number(await data(page, 'pending')) >= 2, 'the extracted entities are drawn as staged');
    assert.ok(Number(await data(page, 'edges')) >= 1, 'with their relationships');
    await shot(page, 'loop-delta-picture');
  });

  it('search finds a memory and an entity; a result opens its page; an entity page shows its history and reverts a correction', async function () {
    skipWithoutChromium(pages.browser, this);
    const t = await newTenant(0);
    const memory = await t.post('/v1/memories', { content: 'The Zephyr deployment window is Sunday night.' });
    const captured = await t.post('/v1/submissions', {
      kind: 'note',
      content: 'Ada Lovelace works for Analytical Engines Ltd.',
    });
    assert.equal(captured.status, 201, JSON.stringify(captured.body));
    const entityId = String(captured.body.submission.entity_ids[0]);
    const entity = (await t.get(`/v1/graph/nodes/${entityId}`)).body.node as { name: string };
    const patch = await (
      await fetch(`${harness().url}/v1/entities/${entityId}`, {
        method: 'PATCH',
        headers: { Authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `${entity.name} (corrected)` }),
      })
    ).json();
    const correction = String((patch as { delta_id: string }).delta_id);

    const { page } = await signedIn(pages.browser, t.key);
    pages.current = page;
    await page.type('#search', 'Zephyr deployment window');
    await page.keyboard.press('Enter');
    await page.waitForSelector(`#results li[data-node="${memory.body.id}"]`);
    await page.click(`#results li[data-node="${memory.body.id}"] a`);
    await page.waitForSelector('#memory');
    assert.match(await textOf(page, '#memory'), /Sunday night/);
    await page.waitForSelector('#history tbody tr');
    await shot(page, 'search-memory');

    await page.goto(`${harness().url}/console#/node/${entityId}`);
    await page.waitForFunction(() => document.querySelectorAll('#history tbody tr').length === 2);
    assert.match(await textOf(page, 'h2'), /^Entity/);
    assert.match(await textOf(page, '#memory'), /\(corrected\)/);
    assert.match(await textOf(page, '#edges'), /MENTIONS/, 'its relationships, linked');
    await page.click(`#history button.revert[data-delta="${correction}"]`);
    await page.waitForFunction(() => document.querySelector('#outcome')?.textContent === 'Delta reverted.');
    assert.equal((await t.get(`/v1/graph/nodes/${entityId}`)).body.node.name, entity.name);
    await shot(page, 'entity-history');
  });

  it('a 503 is retried with backoff while the page says "service unavailable, retrying"', async function () {
    skipWithoutChromium(pages.browser, this);
    const t = await newTenant(0);
    const staged = await t.post('/v1/memories', { content: 'Retried into view.', apply: false });
    const { page } = await signedIn(pages.browser, t.key);
    pages.current = page;
    // The next two queue reads meet a dependency outage: the API's own 503 envelope with Retry-After.
    let refusals = 0;
    await page.setRequestInterception(true);
    page.on('request', (req) => {
      if (req.url().includes('/v1/deltas?') && refusals < 2) {
        refusals += 1;
        void req.respond({
          status: 503,
          headers: { 'Retry-After': '1', 'content-type': 'application/json' },
          body: JSON.stringify({ error: { code: 'graph_unavailable', message: 'The graph database is unavailable.' } }),
        });
      } else void req.continue();
    });
    await page.click('#nav-queue');
    await page.evaluate(() => window.dispatchEvent(new HashChangeEvent('hashchange')));
    await page.waitForSelector('#retrying:not([hidden])');
    assert.match(await textOf(page, '#retrying'), /Service unavailable, retrying/);
    await shot(page, 'retrying');
    await page.waitForSelector(`tr[data-delta="${staged.body.delta_id}"]`, { timeout: 30_000 });
    assert.equal(refusals, 2);
    assert.equal(await page.$eval('#retrying', (el) => (el as HTMLElement).hidden), true);
  });
});
