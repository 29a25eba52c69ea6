// How fast a review lands (issue 57), on engines started for the run: the service's start, the first apply after it
// (with an override reason, as the console sends it when no verdict is SafeToAct) and the first preflight audit of a
// small staged delta; then a bulk import of memories (batches of 100, applied) whose vectors the embedding worker
// drains while small staged deltas are applied and audited one after another. Each figure is printed as one JSON
// line with its goal beside it; the load average and the backlog are printed with them. With Chromium, the review
// console's apply is timed too, in the page, while the backlog drains.
// Run: npx tsx bench/review.ts [--memories 3000] [--rounds 30]
//   (own engines on BENCH_NEO4J_PORT, default 19887, and BENCH_TEMPORAL_PORT, default 19833; embeddings on)
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import puppeteer from 'puppeteer-core';
import { parseArgs } from 'node:util';
import { readBacklog } from '../src/embeddings/status.js';
import { benchTenant, percentile, startBench, timed, words } from './support.js';

const { values: args } = parseArgs({
  options: { memories: { type: 'string', default: '3000' }, rounds: { type: 'string', default: '30' } },
});
const MEMORIES = Number(args.memories);
const ROUNDS = Number(args.rounds);
const GOALS = { first_apply_ms: 2000, apply_p95_ms: 1000, audit_ms: 300, console_apply_ms: 2000 };
const CONSOLE_ROUNDS = 5;

/**
 * Applies `rounds` staged deltas from their console page in headless Chromium, each timed in the page from the
 * click on Apply until the outcome says 'Delta applied.'. Empty without Chromium.
 */
async function timeConsoleApplies(
  url: string,
  key: string,
  stage: () => Promise<string>,
  rounds: number,
): Promise<number[]> {
  const chromium =
    process.env.CHROME_PATH ?? spawnSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).stdout.trim();
  if (!chromium) return [];
  const built = spawnSync(process.execPath, ['scripts/build-console.mjs'], { encoding: 'utf8' });
  if (built.status !== 0) throw new Error(built.stderr);
  const browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
  });
  try {
    const page = await browser.newPage();
    await page.goto(`${url}/console`, { waitUntil: 'domcontentloaded' });
    await page.type('#key', key);
    await page.click('#signin');
    await page.waitForSelector('table.queue');
    const times: number[] = [];
    for (let r = 0; r < rounds; r += 1) {
      const id = await stage();
      await page.evaluate((hash) => (location.hash = hash), `#/delta/${id}`);
      await page.waitForSelector('#override-reason');
      await page.type('#override-reason', 'a reviewer read the delta');
      const ms = await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            const outcome = document.querySelector('#outcome')!;
            const began = performance.now();
            new MutationObserver(() => {
              if (outcome.textContent === 'Delta applied.') resolve(performance.now() - began);
            }).observe(outcome, { childList: true, characterData: true, subtree: true });
            (document.querySelector('#apply') as HTMLButtonElement).click();
          }),
      );
      times.push(ms);
    }
    return times;
  } finally {
    await browser.close();
  }
}

const load = () => Number(os.loadavg()[0]!.toFixed(1));
const print = (figure: Record<string, unknown>) => console.log(JSON.stringify({ ...figure, load: load() }));
const round = (ms: number) => Math.round(ms);

const began = performance.now();
const loadAtStart = load();
const env = await startBench('review', {
  neo4j: Number(process.env.BENCH_NEO4J_PORT ?? 19887),
  temporal: Number(process.env.BENCH_TEMPORAL_PORT ?? 19833),
});
print({
  figure: 'start_s',
  value: Number(((performance.now() - began) / 1000).toFixed(1)),
  note: 'engines and service',
});
try {
  const tenant = await benchTenant(env.service);
  const headers = { authorization: `Bearer ${tenant.key}`, 'content-type': 'application/json' };
  const post = async (path: string, body: unknown): Promise<Record<string, unknown>> => {
    const res = await fetch(`${env.service.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const json = (await res.json()) as Record<string, unknown>;
    if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  let person = 0;
  /** A small staged delta: one memory about a new person (the memory and its subject entity). */
  const stage = async (): Promise<string> => {
    person += 1;
    const name = `Person ${words(person, 2).replace(/\b\w/g, (c) => c.toUpperCase())}`;
    const staged = await post('/v1/memories', {
      content: `${name} joined the review team.`,
      subject: name,
      apply: false,
    });
    return String(staged.delta_id);
  };
  const apply = (id: string) => post(`/v1/deltas/${id}/apply`, { override_reason: 'a reviewer read the delta' });
  const audit = (id: string) => post('/v1/preflight/audit', { delta_id: id });

  const [stageMs, first] = await timed(stage);
  print({ figure: 'first_stage_ms', value: round(stageMs), note: 'no goal: the write before the first apply' });
  const [second, third] = [await stage(), await stage()];
  const [firstApplyMs] = await timed(() => apply(first));
  print({ figure: 'first_apply_ms', value: round(firstApplyMs), goal: GOALS.first_apply_ms });
  const [firstAuditMs] = await timed(() => audit(second));
  print({ figure: 'first_audit_ms', value: round(firstAuditMs), goal: GOALS.audit_ms });
  const [auditMs] = await timed(() => audit(third));
  print({ figure: 'audit_ms', value: round(auditMs), goal: GOALS.audit_ms, note: 'the next audit, idle service' });

  // The bulk import: MEMORIES applied memories, 100 a request, four requests at a time; each joins the backlog.
  const [importMs] = await timed(async () => {
    const batches = Array.from({ length: Math.ceil(MEMORIES / 100) }, (_, b) => b);
    const lane = async () => {
      for (let b = batches.shift(); b !== undefined; b = batches.shift()) {
        const memories = Array.from({ length: Math.min(100, MEMORIES - b * 100) }, (_, i) => ({
          content: `Imported note ${b * 100 + i}: ${words(b * 100 + i, 14)}.`,
        }));
        await post('/v1/memories', { memories });
      }
    };
    await Promise.all([lane(), lane(), lane(), lane()]);
  });
  const before = await readBacklog(env.service.deps.graph);
  print({ figure: 'import_s', value: Number((importMs / 1000).toFixed(1)), memories: MEMORIES, backlog: before.count });

  // While the backlog drains: stage two small deltas, apply one and audit the other, ROUNDS times.
  const applies: number[] = [];
  const audits: number[] = [];
  for (let r = 0; r < ROUNDS; r += 1) {
    const [toApply, toAudit] = [await stage(), await stage()];
    applies.push((await timed(() => apply(toApply)))[0]);
    audits.push((await timed(() => audit(toAudit)))[0]);
  }
  // The console's apply, timed in the page from the click until 'Delta applied.', while the backlog still drains.
  const consoleApplies = await timeConsoleApplies(env.service.url, tenant.key, stage, CONSOLE_ROUNDS);
  const after = await readBacklog(env.service.deps.graph);
  const backlog = { backlog_before: before.count, backlog_after: after.count };
  const stats = (samples: number[]) => ({
    p50: round(percentile(samples, 50)),
    p95: round(percentile(samples, 95)),
    max: round(Math.max(...samples)),
    n: samples.length,
  });
  print({ figure: 'apply_under_backlog_ms', ...stats(applies), goal_p95: GOALS.apply_p95_ms, ...backlog });
  print({ figure: 'audit_under_backlog_ms', ...stats(audits), goal_p95: GOALS.audit_ms, ...backlog });
  if (consoleApplies.length > 0)
    print({ figure: 'console_apply_under_backlog_ms', ...stats(consoleApplies), goal_max: GOALS.console_apply_ms });
  else print({ figure: 'console_apply_under_backlog_ms', skipped: 'no Chromium (apt-get install chromium)' });
} finally {
  await env.stop();
}
console.log(
  `Total ${((performance.now() - began) / 1000).toFixed(0)} s on ${os.cpus().length} cores; load average ` +
    `${loadAtStart} at start, ${load()} at end. Command: npx tsx bench/review.ts --memories ${MEMORIES} --rounds ${ROUNDS}`,
);
