// Time to first render in the review console (headless Chromium, puppeteer-core): the queue of 1,000
// staged deltas (#/queue) and a delta with 1,000 changes (#/delta/<id>): timed in the page from the hash
// change until the first rows are on screen, and until every row is in the page (the picture of the
// delta too); the API calls the page makes are inside the figures. Median and worst of RUNS, after one
// warm-up, with the machine's load average beside them.
// Run: npx tsx bench/console.ts   (own Neo4j on BENCH_NEO4J_PORT, default 19797; CHROME_PATH or chromium)
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
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

/** Runs in the page: the ms from the hash change until each mark is on screen. */
const IN_PAGE = `async (hash, marks) => {
  const began = performance.now();
  const painted = () =>
    new Promise((r) => requestAnimationFrame(() => setTimeout(() => r(performance.now() - began), 0)));
  const seen = (selector, count) =>
    new Promise((resolve) => {
      const ok = () => document.querySelectorAll(selector).length >= count;
      if (ok()) return resolve();
      const watch = new MutationObserver(() => {
        if (ok()) {
          watch.disconnect();
          resolve();
        }
      });
      watch.observe(document.body, { childList: true, subtree: true });
    });
  location.hash = hash;
  const out = [];
  for (const m of marks) {
    await seen(m.selector, m.count);
    out.push(await painted());
  }
  return out;
}`;

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
   * ms from setting the hash until each mark (`selector` matches at least `count` elements) is on screen,
   * measured in the page: a MutationObserver sees the elements, then one frame is let through (an
   * animation frame and a task after it), so work that holds the page after inserting rows (a graph
   * drawn in the same task) is inside the figure. The API calls the page makes are inside too.
   */
  const render = async (hash: string, marks: { selector: string; count: number }[]): Promise<number[]> => {
    await page.evaluate(() => {
      location.hash = '#/search'; // a page that calls nothing
    });
    await page.waitForSelector('main p.muted');
    // Passed as source text: a function would be rewritten by the TypeScript loader with helpers the page lacks.
    return page.evaluate(`(${IN_PAGE})(${JSON.stringify(hash)}, ${JSON.stringify(marks)})`) as Promise<number[]>;
  };
  const measure = async (name: string, hash: string, marks: { label: string; selector: string; count: number }[]) => {
    await render(hash, marks); // warm-up
    const samples: number[][] = [];
    for (let i = 0; i < RUNS; i++) samples.push(await render(hash, marks));
    console.log(
      `${name} (load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')})`,
    );
    marks.forEach((m, k) => {
      const ms = samples.map((s) => s[k]!);
      console.log(`  ${m.label.padEnd(30)} median ${fmt(percentile(ms, 50))}  worst ${fmt(Math.max(...ms))}`);
    });
  };
  const rows = 'table.queue tr[data-delta]';
  await measure(`queue of ${DELTAS + 1} staged deltas`, '#/queue', [
    { label: 'first 50 rows on screen', selector: rows, count: 50 },
    { label: `all ${DELTAS + 1} rows in the page`, selector: rows, count: DELTAS + 1 },
  ]);
  await measure(`delta with ${CHANGES} changes`, `#/delta/${big.deltaId}`, [
    { label: 'first 50 changes on screen', selector: '#diff .change', count: 50 },
    { label: `all ${CHANGES} changes in the page`, selector: '#diff .change', count: CHANGES },
    { label: 'its picture drawn', selector: '#graph canvas', count: 1 },
  ]);
  // What the API alone takes for the reads the pages make (no browser), for comparison.
  const api = async (path: string) => {
    const began = performance.now();
    const res = await fetch(`${url}${path}`, { headers });
    await res.arrayBuffer();
    return performance.now() - began;
  };
  for (const path of [
    '/v1/deltas?status=staged&limit=50',
    '/v1/deltas?status=staged&limit=100',
    `/v1/deltas/${big.deltaId}?changes_limit=100`,
    `/v1/deltas/${big.deltaId}`,
  ]) {
    await api(path);
    const ms: number[] = [];
    for (let i = 0; i < RUNS; i++) ms.push(await api(path));
    console.log(`GET ${path.replace(big.deltaId, '{big}').padEnd(44)} median ${fmt(percentile(ms, 50))}`);
  }
} finally {
  await browser?.close();
  await env.stop();
}
