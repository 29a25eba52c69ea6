// The Neo4j Browser for knowledge engineers, tested as a user would: headless Chromium opens the app
// served by serveBrowser, connects to the test Neo4j over Bolt (WebSocket on the Bolt port), runs
// MATCH (m:Memory) RETURN count(m), and the answer on screen is the engine's count. The screenshot is
// kept in .data/screenshots/ for a person to look at.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import neo4j from 'neo4j-driver';
import { newTenant } from '../support/api.js';
import { harness } from '../support/harness.js';
import { provisionBrowser, serveBrowser, type BrowserServer } from '../../src/runtime/browser.js';

const QUERY = 'MATCH (m:Memory) RETURN count(m)';

function findChromium(): string | undefined {
  if (process.env.CHROME_PATH) return process.env.CHROME_PATH;
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    const probe = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
    if (probe.status === 0 && probe.stdout.trim()) return probe.stdout.trim();
  }
  return undefined;
}

describe('Neo4j Browser for knowledge engineers', function () {
  this.timeout(300_000);
  let server: BrowserServer | undefined;
  after(async () => server?.close());

  it('serves the discovery document that points the app at the Bolt port', async () => {
    const { config, endpoints } = harness();
    const appDir = await provisionBrowser(config.cacheDir, () => undefined);
    server = await serveBrowser({ appDir, port: 0, boltUri: endpoints.neo4jUri, user: 'neo4j' });
    const discovery = await fetch(`${server.url}/`, { headers: { Accept: 'application/json' } });
    assert.equal(discovery.status, 200);
    assert.equal((await discovery.json()).bolt_direct, endpoints.neo4jUri);
    const page = await fetch(`${server.url}/`);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    assert.match(await page.text(), /Neo4j Browser/i);
    assert.equal((await fetch(`${server.url}/..%2f..%2fetc/passwd`)).status, 404);
    assert.equal(
      server.openUrl,
      `${server.url}/?dbms=${endpoints.neo4jUri.replace('://', '://neo4j@')}&preselectAuthMethod=NATIVE`,
    );
  });

  it('headless Chromium connects and shows the count of memories', async function () {
    const chromium = findChromium();
    if (!chromium) {
      process.stdout.write(
        '      skipped: no Chromium on this machine (apt-get install chromium, or set CHROME_PATH)\n',
      );
      this.skip();
    }
    assert.ok(server, 'the discovery test starts the server');
    const t = await newTenant(0);
    for (const content of ['Browser check one.', 'Browser check two.']) {
      assert.equal((await t.post('/v1/memories', { content })).status, 201);
    }
    const login = harness().endpoints.neo4jAuth;
    assert.ok(login, 'the local engine runs with a generated password');
    const driver = neo4j.driver(harness().endpoints.neo4jUri, neo4j.auth.basic(login.user, login.password));
    const expected = await driver
      .executeQuery(QUERY)
      .then((r) => neo4j.integer.toNumber(r.records[0]!.get(0)))
      .finally(() => driver.close());
    assert.ok(expected >= 2);

    const puppeteer = (await import('puppeteer-core')).default;
    const browser = await puppeteer.launch({
      executablePath: chromium,
      headless: true,
      args: ['--no-sandbox', '--disable-dev-shm-usage'],
    });
    try {
      const page = await browser.newPage();
      await page.setViewport({ width: 1280, height: 800 });
      await page.goto(server.openUrl, { waitUntil: 'domcontentloaded', timeout: 120_000 });
      // The connect form comes filled with the URL and user; the person types the generated password.
      await page.waitForSelector('[data-testid="password"]', { timeout: 120_000 });
      assert.equal(await page.$eval('[data-testid="username"]', (e) => (e as HTMLInputElement).value), 'neo4j');
      await page.type('[data-testid="password"]', login.password);
      await page.click('[data-testid="connect"]');
      await page
        .waitForFunction(() => document.body.innerText.includes('You are connected'), { timeout: 120_000 })
        .catch(async (error: unknown) => {
          const dir = path.join(harness().config.dataDir, 'screenshots');
          fs.mkdirSync(dir, { recursive: true });
          await page.screenshot({ path: path.join(dir, 'neo4j-browser-not-connected.png') });
          throw error;
        });
      await page.click('.monaco-editor');
      await page.keyboard.type(QUERY);
      await page.keyboard.down('Control');
      await page.keyboard.press('Enter');
      await page.keyboard.up('Control');
      // The result frame's table: header count(m), one row (row number, value).
      const shown = await page.waitForFunction(
        () => {
          const table = Array.from(document.querySelectorAll('table')).find((t) => /count\(m\)/.test(t.innerText));
          const cells = table ? Array.from(table.querySelectorAll('td')).map((c) => c.innerText.trim()) : [];
          return cells.length >= 2 ? cells[cells.length - 1] : false;
        },
        { timeout: 60_000 },
      );
      const dir = path.join(harness().config.dataDir, 'screenshots');
      fs.mkdirSync(dir, { recursive: true });
      await page.screenshot({ path: path.join(dir, 'neo4j-browser-memory-count.png') });
      assert.equal(Number(await shown.jsonValue()), expected);
    } finally {
      await browser.close();
    }
  });
});
