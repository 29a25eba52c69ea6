// The review console, driven as a reviewer drives it: headless Chromium opens /console on the API
// port, signs in with a key, and reviews staged deltas through the public /v1 API. Each test saves a
// screenshot in .data/screenshots/console-*.png for a person to look at.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { newTenant, call, type Tenant } from '../support/api.js';
import { harness } from '../support/harness.js';
import { SCOPES, type Scope } from '../../src/auth/scopes.js';

const SHOTS = path.resolve('.data', 'screenshots');

function findChromium(): string | undefined {
  if (process.env.CHROME_PATH) return process.env.CHROME_PATH;
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    const probe = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
    if (probe.status === 0 && probe.stdout.trim()) return probe.stdout.trim();
  }
  return undefined;
}

describe('review console', function () {
  this.timeout(180_000);
  let browser: Browser | undefined;
  const chromium = findChromium();

  before(async function () {
    const built = spawnSync(process.execPath, ['scripts/build-console.mjs'], { encoding: 'utf8' });
    assert.equal(built.status, 0, built.stderr);
    if (!chromium) return;
    const puppeteer = (await import('puppeteer-core')).default;
    browser = await puppeteer.launch({
      executablePath: chromium,
      headless: true,
      args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-gpu'],
    });
  });
  after(async () => browser?.close());
  let current: Page | undefined;
  afterEach(async function () {
    // A failing test leaves its page on screen: keep it for the person reading the failure.
    if (this.currentTest?.state === 'failed' && current && !current.isClosed())
      await shot(current, `failed-${this.currentTest.title.slice(0, 24).replace(/\W+/g, '-')}`);
    if (current && !current.isClosed()) await current.close();
  });

  function needChromium(ctx: Mocha.Context): void {
    if (!browser) {
      process.stdout.write(
        '      skipped: no Chromium on this machine (apt-get install chromium, or set CHROME_PATH)\n',
      );
      ctx.skip();
    }
  }

  async function open(key: string): Promise<Page> {
    const page = await browser!.newPage();
    await page.setViewport({ width: 1400, height: 900 });
    page.on('dialog', (d) => void d.dismiss());
    await page.goto(`${harness().url}/console`, { waitUntil: 'domcontentloaded' });
    await page.waitForSelector('#key');
    await page.type('#key', key);
    await page.click('#signin');
    await page.waitForSelector('table.queue');
    current = page;
    return page;
  }

  async function shot(page: Page, name: string): Promise<void> {
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, `console-${name}.png`) as `${string}.png`, fullPage: true });
  }

  const textOf = (page: Page, sel: string) => page.$eval(sel, (el) => (el as HTMLElement).innerText);

  async function nearDuplicate(t: Tenant): Promise<string> {
    assert.equal((await t.post('/v1/memories', { content: 'Ada prefers tea.' })).status, 201);
    const staged = await t.post('/v1/memories', { content: 'ada prefers tea', apply: false });
    assert.equal(staged.status, 201);
    return String(staged.body.delta_id);
  }

  it('serves the page with a strict CSP, no framing, and a script and stylesheet from itself only', async () => {
    const res = await call('GET', '/console');
    assert.equal(res.status, 200);
    const csp = res.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.match(csp, /style-src 'self'(;|$)/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.equal(res.headers.get('x-frame-options'), 'DENY');
    assert.doesNotMatch(String(res.body), /<script>|<style>|style=/, 'no inline script or style');
    assert.equal((await call('GET', '/console/app.js')).status, 200);
    assert.equal(
      (await call('GET', '/console/../v1/openapi.json')).status,
      200,
      'normalised by the client, not served here',
    );
    assert.equal((await call('GET', '/console/nope.js')).status, 404);
  });

  it('a reviewer signs in with a key and sees the staged delta in the queue; a wrong key is told so', async function () {
    needChromium(this);
    const t = await newTenant(0);
    const deltaId = await nearDuplicate(t);
    const bad = await browser!.newPage();
    await bad.goto(`${harness().url}/console`, { waitUntil: 'domcontentloaded' });
    await bad.waitForSelector('#key');
    await bad.type('#key', 'gks_not_a_key');
    await bad.click('#signin');
    await bad.waitForSelector('.signin .error');
    assert.match(await textOf(bad, '.signin .error'), /unauthorized/);
    await bad.close();

    const page = await open(t.key);
    await page.waitForSelector(`tr[data-delta="${deltaId}"]`);
    assert.match(await textOf(page, 'header.top'), new RegExp(t.projectId));
    assert.equal(await page.evaluate(() => localStorage.length + sessionStorage.length + document.cookie.length), 0);
    assert.doesNotMatch(page.url(), /gks_/);
    await page.click(`tr[data-delta="${deltaId}"] button`);
    await page.waitForSelector(`tr[data-delta="${deltaId}"] .badge.ReviewRequired`, { timeout: 120_000 });
    await shot(page, 'queue');
    await page.close();
  });

  it('a delta shows its findings and diff; selecting a finding highlights its nodes; apply needs the reason when not SafeToAct', async function () {
    needChromium(this);
    const t = await newTenant(0);
    const deltaId = await nearDuplicate(t);
    const page = await open(t.key);
    await page.click(`tr[data-delta="${deltaId}"] a`);
    await page.waitForSelector('#run-preflight');
    // The diff is drawn when the delta's changes arrive, which may be after the page's buttons.
    await page.waitForFunction(() => /create node/.test(document.querySelector('#diff')?.textContent ?? ''), {
      timeout: 60_000,
    });
    assert.match(await textOf(page, '#diff'), /create node/);
    assert.match(await textOf(page, '#diff'), /ada prefers tea/);
    await page.click('#run-preflight');
    await page.waitForSelector('.finding', { timeout: 120_000 }); // preflight is slow on a busy machine
    assert.match(await textOf(page, '#verdict'), /ReviewRequired/);
    assert.match(await textOf(page, '#verdict'), /duplicates/);
    assert.equal(await page.$$eval('#diff .hl', (els) => els.length), 0);
    await page.click('.finding');
    await page.waitForSelector('#diff .hl');
    await shot(page, 'delta-finding');

    await page.click('#apply');
    await page.waitForFunction(() => document.querySelector('#outcome')?.textContent?.includes('reason'));
    assert.equal((await t.get(`/v1/deltas/${deltaId}`)).body.delta.status, 'staged', 'nothing applied without it');
    await page.type('#override-reason', 'a reviewer checked: distinct people');
    await page.click('#apply');
    await page.waitForFunction(() => document.querySelector('#outcome')?.textContent === 'Delta applied.');
    const read = (await t.get(`/v1/deltas/${deltaId}`)).body.delta;
    assert.equal(read.status, 'applied');
    assert.equal(read.override_reason, 'a reviewer checked: distinct people');
    assert.ok(await page.$('#revert'), 'an applied delta offers revert without a reload');
    await shot(page, 'delta-applied');
    await page.close();
  });

  it('reject with a reason: refused without one, recorded with it', async function () {
    needChromium(this);
    const t = await newTenant(0);
    const deltaId = await nearDuplicate(t);
    const page = await open(t.key);
    await page.goto(`${harness().url}/console#/delta/${deltaId}`);
    await page.waitForSelector('#reject');
    await page.click('#reject');
    await page.waitForFunction(() => document.querySelector('#outcome')?.textContent?.includes('reason'));
    assert.equal((await t.get(`/v1/deltas/${deltaId}`)).body.delta.status, 'staged');
    await page.type('#reject-reason', 'duplicate of an existing memory');
    await page.click('#reject');
    await page.waitForFunction(() => document.querySelector('#outcome')?.textContent === 'Delta rejected.');
    const read = (await t.get(`/v1/deltas/${deltaId}`)).body.delta;
    assert.equal(read.status, 'rejected');
    assert.equal(read.reason, 'duplicate of an existing memory');
    await shot(page, 'delta-rejected');
    await page.close();
  });

  it('revert from a memory history; a memory whose content is markup renders as text', async function () {
    needChromium(this);
    const t = await newTenant(0);
    const xss = '<img src=x onerror=alert(1)>';
    const made = await t.post('/v1/memories', { content: xss });
    assert.equal(made.status, 201);
    const memoryId = String(made.body.memories[0].id);
    const page = await open(t.key);
    await page.goto(`${harness().url}/console#/memory/${encodeURIComponent(memoryId)}`);
    await page.waitForSelector('#memory');
    assert.ok((await textOf(page, '#memory')).includes(xss), 'the markup is shown as text');
    assert.equal(await page.$$eval('img', (els) => els.length), 0, 'no element was made from it');
    await shot(page, 'memory');
    await page.waitForSelector('#history button.revert');
    await page.click('#history button.revert');
    await page.waitForFunction(() => document.querySelector('#history')?.textContent?.includes('reverted'));
    assert.equal((await t.get(`/v1/deltas/${made.body.delta_id}`)).body.delta.status, 'reverted');
    assert.equal((await t.get(`/v1/memories/${encodeURIComponent(memoryId)}`)).status, 404);
    await shot(page, 'memory-reverted');
    await page.close();
  });

  it('a key without deltas:apply sees no apply button, and a forged apply with it is refused', async function () {
    needChromium(this);
    const t = await newTenant(0);
    const deltaId = await nearDuplicate(t);
    const readOnly = await t.keyWith({
      scopes: SCOPES.filter((s) => s !== 'deltas:apply' && s !== 'admin') as Scope[],
    });
    const page = await open(readOnly);
    await page.goto(`${harness().url}/console#/delta/${deltaId}`);
    await page.waitForSelector('#diff');
    assert.equal(await page.$('#apply'), null);
    assert.equal(await page.$('#reject'), null);
    const forged = await page.evaluate(
      async (id, key) => {
        const r = await fetch(`/v1/deltas/${id}/apply`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
          body: '{}',
        });
        return { status: r.status, body: (await r.json()) as { error: { code: string } } };
      },
      deltaId,
      readOnly,
    );
    assert.equal(forged.status, 403);
    assert.equal(forged.body.error.code, 'forbidden');
    assert.equal((await t.get(`/v1/deltas/${deltaId}`)).body.delta.status, 'staged');
    await shot(page, 'read-only');
    await page.close();
  });
});
