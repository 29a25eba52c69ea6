// Headless Chromium for the console tests (puppeteer-core and the machine's own Chromium): found, or
// the tests skip with the reason. Screenshots go to .data/screenshots/console-*.png.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { harness } from '../support/harness.js';

export const SHOTS = path.resolve('.data', 'screenshots');

export function findChromium(): string | undefined {
  if (process.env.CHROME_PATH) return process.env.CHROME_PATH;
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    const probe = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
    if (probe.status === 0 && probe.stdout.trim()) return probe.stdout.trim();
  }
  return undefined;
}

export async function launch(): Promise<Browser | undefined> {
  const built = spawnSync(process.execPath, ['scripts/build-console.mjs'], { encoding: 'utf8' });
  assert.equal(built.status, 0, built.stderr);
  const chromium = findChromium();
  if (!chromium) return undefined;
  const puppeteer = (await import('puppeteer-core')).default;
  return puppeteer.launch({
    executablePath: chromium,
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-gpu'],
  });
}

export function skipWithoutChromium(browser: Browser | undefined, ctx: Mocha.Context): asserts browser is Browser {
  if (!browser) {
    process.stdout.write('      skipped: no Chromium on this machine (apt-get install chromium, or set CHROME_PATH)\n');
    ctx.skip();
  }
}

/** A describe block's browser and the page its current test uses (`current`). */
export interface Pages {
  browser: Browser | undefined;
  current: Page | undefined;
}

/**
 * Launches the browser before a describe block's tests and closes it after them; after each test, its page
 * (`current`) is photographed if the test failed, and closed.
 */
export function usePages(): Pages {
  const pages: Pages = { browser: undefined, current: undefined };
  before(async () => {
    pages.browser = await launch();
  });
  after(async () => pages.browser?.close());
  afterEach(async function () {
    const { current } = pages;
    if (this.currentTest?.state === 'failed' && current && !current.isClosed())
      await shot(current, `failed-${this.currentTest.title.slice(0, 24).replace(/\W+/g, '-')}`);
    if (current && !current.isClosed()) await current.close();
  });
  return pages;
}

/**
 * A signed-in page on the queue; CSP violations the page reports are collected in `violations`. With
 * `settings`, the page reads those instead of /console/settings.json (a Temporal UI where the test service
 * runs none).
 */
export async function signedIn(
  browser: Browser,
  key: string,
  options: { settings?: Record<string, unknown> } = {},
): Promise<{ page: Page; violations: string[] }> {
  const page = await browser.newPage();
  if (options.settings) {
    const body = JSON.stringify(options.settings);
    await page.setRequestInterception(true);
    page.on('request', (req) => {
      if (new URL(req.url()).pathname === '/console/settings.json')
        void req.respond({ status: 200, contentType: 'application/json', body });
      else void req.continue();
    });
  }
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content.Security.Policy/i.test(m.text())) violations.push(m.text());
  });
  await page.setViewport({ width: 1400, height: 900 });
  page.on('dialog', (d) => void d.dismiss());
  await page.goto(`${harness().url}/console`, { waitUntil: 'domcontentloaded' });
  await page.waitForSelector('#key');
  await page.type('#key', key);
  await page.click('#signin');
  await page.waitForSelector('table.queue');
  return { page, violations };
}

export async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `console-${name}.png`) as `${string}.png`, fullPage: true });
}

export const textOf = (page: Page, sel: string) => page.$eval(sel, (el) => (el as HTMLElement).innerText);
/**
 * The text an element holds, shown or not: the diff's changes out of view are `content-visibility: auto`,
 * which innerText leaves out until they are scrolled to.
 */
export const contentOf = (page: Page, sel: string) => page.$eval(sel, (el) => el.textContent ?? '');
