// Time to first render in the review console (headless Chromium, puppeteer-core): the queue of 1,000
// staged deltas (#/queue: every row drawn) and a delta with 1,000 changes (#/delta/<id>: every change of
// the diff drawn). Timed from the hash change until all rows are in the DOM; the API calls the page
// makes are inside the figure. Median and worst of RUNS, after one warm-up.
// Run: npx tsx bench/console.ts   (own Neo4j on BENCH_NEO4J_PORT, default 19797; CHROME_PATH or chromium)
import { spawnSync } from 'node:child_process';
import puppeteer, { type Browser } from 'puppeteer-core';
import { DeltaDraft } from '../src/deltas/draft.js';
import { writeGoverned } from '../src/deltas/service.js';
import { benchTenant, fmt, percentile, startBench, words } from './support.js';

const DELTAS = 1_000;
const CHANGES = 1_000;
const RUNS = 5;

const chromium =
  process.env.CHROME_PATH ?? spawnSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).stdout.trim();
if (!chromium) throw new Error('no Chromium: apt-get install chromium, or set CHROME_PATH');
const built = spawnSync(process.execPath, ['scripts/build-console.mjs'], { encoding: 'utf8' });
if (built.status !== 0) throw new Error(built.stderr);

const env = await startBench('console', {
  neo4j: Number(process.env.BENCH_NEO4J_PORT ?? 19797),
  temporal: Number(process.env.BENCH_TEMPORAL_PORT ?? 19343),
});

let browser: Browser | undefined;
try {
  const tenant = await benchTenant(env.service);
  const url = env.service.url;
  const headers = { Authorization: `Bearer ${tenant.key}`, 'content-type': 'application/json' };
  // 1,000 staged deltas through the API, eight at a time.
  let next = 0;
  const stageOne = async (): Promise<void> => {
    while (next < DELTAS) {
      const i = next++;
      const res = await fetch(`${url}/v1/memories`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ content: `${words(i, 12)}.`, apply: false }),
      });
      if (res.status !== 201) throw new Error(`seed ${i}: ${res.status} ${await res.text()}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, stageOne));
  // One delta of 1,000 created memories (the API batches at most 100 per delta), staged as a write would.
  const project = (await (await fetch(`${url}/v1/project`, { headers })).json()) as { key: { id: string } };
  const draft = new DeltaDraft('memory', `bench: ${CHANGES} memories`);
  for (let i = 0; i < CHANGES; i++)
    draft.createNode(['Memory'], { content: `${words(50_000 + i, 14)}.`, kind: 'fact', name: words(50_000 + i, 4) });
  const big = await writeGoverned(
    env.service.deps.graph,
    draft,
    { projectId: tenant.projectId, organizationId: tenant.organizationId, keyId: project.key.id, requestId: 'bench' },
    false,
  );
  if (big.status !== 'staged') throw new Error(`the big delta was not staged: ${big.status} ${big.error?.message}`);
  console.error(`seeded ${DELTAS} staged deltas and one of ${CHANGES} changes`);

  browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-dev-shm-usage',
      '--disable-gpu',
      // A headless page must not be throttled like a background tab while it is measured.
      '--disable-background-timer-throttling',
      '--disable-renderer-backgrounding',
      '--disable-backgrounding-occluded-windows',
    ],
    protocolTimeout: 600_000,
  });
  const page = await browser.newPage();
  await page.setViewport({ width: 1400, height: 900 });
  await page.goto(`${url}/console`, { waitUntil: 'domcontentloaded' });
  await page.waitForSelector('#key');
  await page.type('#key', tenant.key);
  await page.click('#signin');
  await page.waitForSelector('table.queue', { timeout: 120_000 });
  console.error('signed in; measuring');

  /**
   * ms from setting the hash until `selector` matches at least `count` elements, timed from Node (the
   * page is watched with a MutationObserver through waitForFunction; the protocol round trip, a few ms,
   * is inside the figure).
   */
  const render = async (hash: string, selector: string, count: number): Promise<number> => {
    await page.evaluate(() => {
      location.hash = '#/search'; // a page that calls nothing
    });
    await page.waitForSelector('main p.muted');
    const began = performance.now();
    await page.evaluate((h) => {
      location.hash = h;
    }, hash);
    await page.waitForFunction(
      (sel, n) => document.querySelectorAll(sel).length >= n,
      { polling: 'mutation', timeout: 120_000 },
      selector,
      count,
    );
    return performance.now() - began;
  };
  const measure = async (name: string, hash: string, selector: string, count: number) => {
    await render(hash, selector, count); // warm-up
    const samples: number[] = [];
    for (let i = 0; i < RUNS; i++) samples.push(await render(hash, selector, count));
    console.log(`${name.padEnd(34)} median ${fmt(percentile(samples, 50))}  worst ${fmt(Math.max(...samples))}`);
  };
  await measure(`queue of ${DELTAS + 1} staged deltas`, '#/queue', 'table.queue tr[data-delta]', DELTAS + 1);
  await measure(`delta with ${CHANGES} changes`, `#/delta/${big.deltaId}`, '#diff .change', CHANGES);
} finally {
  await browser?.close();
  await env.stop();
}
