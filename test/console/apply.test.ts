// The review console's apply as a reviewer meets it on a busy service (issue 57): applied while a bulk import's
// vectors drain, with its elapsed time counting up until the answer; and an apply that gets no answer ends with
// the delta as it is, never on "Applying…". Headless Chromium against the test service (real engines).
import assert from 'node:assert/strict';
import type { HTTPRequest, Page } from 'puppeteer-core';
import { newTenant, type Tenant } from '../support/api.js';
import { harness } from '../support/harness.js';
import { waitForEmbeddings } from '../support/embeddings.js';
import { readBacklog } from '../../src/embeddings/status.js';
import { shot, signedIn, skipWithoutChromium, textOf, usePages } from './browser.js';

/** A staged memory about a new person: the memory, the person, and the link between them. */
async function stagedPerson(t: Tenant, name: string): Promise<string> {
  const staged = await t.post('/v1/memories', {
    content: `${name} joined the review team.`,
    subject: name,
    apply: false,
  });
  assert.equal(staged.status, 201, JSON.stringify(staged.body));
  return String(staged.body.delta_id);
}

/** Every text the outcome line shows, in order, collected in the page from now on. */
async function watchOutcome(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { outcomes: string[] }).outcomes = seen;
    const el = document.querySelector('#outcome')!;
    new MutationObserver(() => seen.push(el.textContent ?? '')).observe(el, {
      childList: true,
      characterData: true,
      subtree: true,
    });
  });
  return () => page.evaluate(() => (window as unknown as { outcomes: string[] }).outcomes);
}

/** Opens the delta's page and gives the reason the apply needs without a SafeToAct verdict. */
async function readyToApply(page: Page, deltaId: string): Promise<void> {
  await page.goto(`${harness().url}/console#/delta/${deltaId}`);
  await page.waitForSelector('#apply');
  await page.type('#override-reason', 'a reviewer read the delta');
}

describe('review console: apply on a busy service', function () {
  this.timeout(300_000);
  const pages = usePages();

  it('applies a staged person while an import of 1,000 memories drains its vectors, its elapsed time counting up', async function () {
    skipWithoutChromium(pages.browser, this);
    const t = await newTenant(0);
    const deltaId = await stagedPerson(t, 'Grace Hopper');
    for (let b = 0; b < 10; b += 1) {
      const memories = Array.from({ length: 100 }, (_, i) => ({
        content: `Imported note ${b * 100 + i} about the quarterly review of the harbour project.`,
      }));
      assert.equal((await t.post('/v1/memories', { memories })).status, 201);
    }
    const { page } = await signedIn(pages.browser, t.key);
    pages.current = page;
    await readyToApply(page, deltaId);
    const outcomes = await watchOutcome(page);
    const backlog = (await readBacklog(harness().service.deps.graph)).count;
    assert.ok(backlog >= 200, `the import's vectors are still draining (backlog ${backlog})`);
    const began = Date.now();
    await page.click('#apply');
    await page.waitForFunction(() => document.querySelector('#outcome')?.textContent === 'Delta applied.', {
      timeout: 60_000,
    });
    process.stdout.write(`      applied in ${Date.now() - began} ms beside a backlog of ${backlog} vectors\n`);
    const shown = await outcomes();
    assert.match(shown[0] ?? '', /^Applying… \d+\.\d s$/, `progress first: ${JSON.stringify(shown)}`);
    assert.equal(shown.at(-1), 'Delta applied.');
    assert.equal((await t.get(`/v1/deltas/${deltaId}`)).body.delta.status, 'applied');
    assert.ok(await page.$('#revert'), 'the applied delta offers revert in place');
    await shot(page, 'apply-under-backlog');
    // The import's vectors are this test's to wait for: a backlog left behind is older than what later tests write,
    // and the oldest-first share of each batch would serve it before theirs (test/embeddings/outage.test.ts).
    await waitForEmbeddings(t.projectId, 240_000);
  });

  it('an apply that gets no answer ends by reading the delta back: applied when the service made it, an error when not', async function () {
    skipWithoutChromium(pages.browser, this);
    const t = await newTenant(0);
    const made = await stagedPerson(t, 'Ada Lovelace');
    const lost = await stagedPerson(t, 'Charles Babbage');
    /** Holds the page's apply request unanswered; the service makes it first when `apply` is set. */
    const hold = async (deltaId: string, apply: boolean): Promise<Page> => {
      const { page } = await signedIn(pages.browser!, t.key);
      await page.setRequestInterception(true);
      page.on('request', (req: HTTPRequest) => {
        if (req.method() !== 'POST' || !req.url().endsWith(`/v1/deltas/${deltaId}/apply`)) {
          void req.continue();
          return;
        }
        // Never answered: the connection stays open, as behind a proxy that lost the reply.
        if (!apply) return;
        const sent = req.headers();
        const headers = Object.fromEntries(
          ['authorization', 'content-type', 'idempotency-key'].map((name) => [name, sent[name] ?? '']),
        );
        void fetch(req.url(), { method: 'POST', headers, body: req.postData() ?? '' }).catch(() => undefined);
      });
      await readyToApply(page, deltaId);
      await page.click('#apply');
      return page;
    };
    const settled = (page: Page) =>
      page.waitForFunction(() => !document.querySelector('#outcome')?.classList.contains('busy'), { timeout: 60_000 });
    // The service applied it, but its answer never came: read back, it is shown applied.
    const madePage = await hold(made, true);
    pages.current = madePage;
    await madePage.waitForSelector('#outcome.busy');
    assert.match(await textOf(madePage, '#outcome'), /^Applying… \d+\.\d s$/);
    await settled(madePage);
    assert.equal(await textOf(madePage, '#outcome'), 'Delta applied.');
    assert.equal((await t.get(`/v1/deltas/${made}`)).body.delta.status, 'applied');
    await madePage.close();
    // Nothing reached the service: read back, it is still staged, and the reviewer is told so.
    const lostPage = await hold(lost, false);
    pages.current = lostPage;
    await settled(lostPage);
    assert.match(await textOf(lostPage, '#outcome'), /^timeout: No answer within 20 s, and the delta is still staged/);
    assert.equal(
      await lostPage.$eval('#apply', (b) => (b as HTMLButtonElement).disabled),
      false,
      'it can be tried again',
    );
    assert.equal((await t.get(`/v1/deltas/${lost}`)).body.delta.status, 'staged');
    await shot(lostPage, 'apply-no-answer');
  });
});
