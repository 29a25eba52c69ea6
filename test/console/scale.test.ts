// The review console with a big queue and a big delta, in headless Chromium: the queue is drawn page by
// page as it is read, yet its order, count and filters cover every staged delta (a filter set while the
// first page is on screen applies to the pages read after it); a delta of 1,000 changes is drawn in
// slices and its diff ends up whole, in order, with its picture. Screenshots: .data/screenshots.
import assert from 'node:assert/strict';
import type { HTTPRequest, Page } from 'puppeteer-core';
import { DeltaDraft } from '../../src/deltas/draft.js';
import { writeGoverned } from '../../src/deltas/service.js';
import { newTenant, type Tenant } from '../support/api.js';
import { harness } from '../support/harness.js';
import { jsonConnection } from '../connections/support.js';
import type { StandIn } from '../connections/standins.js';
import { contentOf, shot, signedIn, skipWithoutChromium, textOf, usePages } from './browser.js';

const MANY = 1000;

/** Stages `count` memories through the API, eight requests at a time. */
async function stageMemories(t: Tenant, count: number, prefix: string, key?: string): Promise<void> {
  let next = 0;
  const one = async () => {
    while (next < count) {
      const i = next++;
      const reply = await t.post(
        '/v1/memories',
        { content: `${prefix} ${i}: the widget report number ${i}.`, apply: false },
        key ? { key } : {},
      );
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
    }
  };
  await Promise.all(Array.from({ length: 8 }, one));
}

/** Every staged delta id, newest first, as the API pages them. */
async function stagedIds(t: Tenant): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const reply = await t.get(`/v1/deltas?status=staged&limit=100${cursor ? `&cursor=${cursor}` : ''}`);
    ids.push(...(reply.body.deltas as { id: string }[]).map((d) => d.id));
    cursor = (reply.body.next_cursor as string | null) ?? null;
  } while (cursor);
  return ids;
}

describe('review console: a big queue and a big delta', function () {
  this.timeout(600_000);
  const pages = usePages();

  const rowIds = (page: Page) =>
    page.$$eval('table.queue tr[data-delta]', (rows) => rows.map((r) => r.getAttribute('data-delta')!));
  const drawnAll = (page: Page, count: number) =>
    page.waitForFunction(
      (n) =>
        document.querySelector('#queue')?.getAttribute('data-complete') === 'true' &&
        document.querySelectorAll('table.queue tr[data-delta]').length === n,
      { timeout: 120_000 },
      count,
    );

  it('a queue of over 1,000 staged deltas: newest first over every page; a filter set while the first page is on screen applies to all of them', async function () {
    skipWithoutChromium(pages.browser, this);
    const t = await newTenant(0);
    // The oldest staged deltas, so they come on the last page: a staged connection (another origin) and
    // four memories staged by a second key (another actor).
    const staged = await t.post(
      '/v1/connections',
      jsonConnection({ url: 'http://127.0.0.1:9', token: 'tok_not_used' } as StandIn, { apply: false }),
    );
    assert.equal(staged.status, 201, JSON.stringify(staged.body));
    const second = await t.keyWith({});
    const secondId = String((await t.get('/v1/project', { key: second })).body.key.id);
    await stageMemories(t, 4, 'second key', second);
    await stageMemories(t, MANY, 'first key');
    const ids = await stagedIds(t);
    assert.equal(ids.length, MANY + 5);

    const { page } = await signedIn(pages.browser, t.key);
    pages.current = page;
    await drawnAll(page, MANY + 5);
    assert.deepEqual(await rowIds(page), ids, 'every staged delta, newest first, across every page');
    assert.equal(await textOf(page, '#queue-count'), `${MANY + 5} of ${MANY + 5} staged`);

    // Read again, holding every page after the first until the filter is set on the first page's rows.
    const held: HTTPRequest[] = [];
    let holding = true;
    await page.setRequestInterception(true);
    page.on('request', (req) => {
      if (holding && req.url().includes('/v1/deltas?') && req.url().includes('cursor=')) held.push(req);
      else void req.continue();
    });
    await page.evaluate(() => (location.hash = '#/search'));
    await page.waitForSelector('main p.muted');
    await page.evaluate(() => (location.hash = '#/queue'));
    await page.waitForFunction(() => /reading more/.test(document.querySelector('#queue-count')?.textContent ?? ''));
    const firstPage = (await rowIds(page)).length;
    assert.ok(firstPage > 0 && firstPage < MANY, `only the first page is on screen (${firstPage} rows)`);
    await page.$eval(
      '#filter-actor',
      (input, id) => {
        (input as HTMLInputElement).value = id;
        input.dispatchEvent(new Event('input'));
      },
      secondId,
    );
    assert.equal(await textOf(page, '#queue-count'), `0 of ${firstPage} staged · reading more…`);
    assert.equal((await rowIds(page)).length, 0);
    holding = false;
    for (const req of held.splice(0)) void req.continue();
    await page.waitForFunction(() => document.querySelector('#queue')?.getAttribute('data-complete') === 'true', {
      timeout: 120_000,
    });
    assert.equal(await textOf(page, '#queue-count'), `4 of ${MANY + 5} staged`);
    const bySecond = await rowIds(page);
    assert.deepEqual(bySecond, ids.slice(MANY, MANY + 4), "the second key's four, from the last page, in order");
    await shot(page, 'queue-filtered-all-pages');

    // The origin of the oldest delta is offered once its page is read, and filters all the pages too.
    await page.$eval('#filter-actor', (input) => {
      (input as HTMLInputElement).value = '';
      input.dispatchEvent(new Event('input'));
    });
    await page.select('#filter-origin', 'connection');
    assert.equal(await textOf(page, '#queue-count'), `1 of ${MANY + 5} staged`);
    assert.deepEqual(await rowIds(page), [String(staged.body.delta_id)]);
    await page.select('#filter-origin', '');
    await drawnAll(page, MANY + 5);
    assert.deepEqual(await rowIds(page), ids, 'back to every delta, in order');
  });

  it('a delta of 1,000 changes: the first changes at once, then the whole diff in order, its size and its picture', async function () {
    skipWithoutChromium(pages.browser, this);
    const t = await newTenant(0);
    const draft = new DeltaDraft('memory', `${MANY} memories at once`);
    for (let i = 0; i < MANY; i++)
      draft.createNode(['Memory'], { content: `Memory ${i} of the big delta.`, kind: 'fact', name: `memory ${i}` });
    const big = await writeGoverned(
      harness().service.deps.graph,
      draft,
      { projectId: t.projectId, organizationId: t.organizationId, keyId: t.keyId, requestId: 'console-scale-test' },
      false,
    );
    assert.equal(big.status, 'staged');
    const read = (await t.get(`/v1/deltas/${big.deltaId}?changes_limit=5000`)).body.delta;
    const order = (read.changes as { node_id: string }[]).map((c) => c.node_id);
    assert.equal(order.length, MANY);

    const { page } = await signedIn(pages.browser, t.key);
    pages.current = page;
    await page.goto(`${harness().url}/console#/delta/${big.deltaId}`);
    await page.waitForSelector('#diff .change');
    await page.waitForFunction(
      (n) => document.querySelector('#diff')?.getAttribute('data-drawn') === String(n),
      { timeout: 120_000 },
      MANY,
    );
    const drawn = await page.$$eval('#diff .change', (els) => els.map((e) => e.getAttribute('data-nodes')));
    assert.deepEqual(drawn, order, 'every change once, in the order staged');
    assert.equal(await textOf(page, '#size'), `nodes +${MANY} ~0 −0 · relationships +0 −0`);
    assert.match(await contentOf(page, '#diff'), /Memory 999 of the big delta/);
    await page.waitForSelector('#graph canvas', { timeout: 120_000 });
    assert.equal(await page.$eval('#graph', (el) => (el as HTMLElement).dataset.pending), '300', 'drawn in part');
    assert.equal(await page.$eval('#graph', (el) => (el as HTMLElement).dataset.truncated), String(MANY));
    await shot(page, 'delta-1000-changes');
  });
});
