import assert from 'node:assert/strict';
import { countTokens as cl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import { newTenant, type Tenant } from '../support/api.js';
import { harness } from '../support/harness.js';
import { gatherCandidates } from '../../src/context/candidates.js';
import { fitBudget, fitSelection, selectItems, selectedEntityIds } from '../../src/context/budget.js';
import { rankCandidates } from '../../src/context/rank.js';
import { rendererFor } from '../../src/context/render.js';
import { TokenCounter } from '../../src/context/tokenCount.js';
import { normalizeDefinition } from '../../src/slices/definition.js';
import { packIds, remember, sectionIds, seedEntities } from './fixtures.js';

const AS_TEXT = { disallowedSpecial: new Set<string>() };
const CJK = '東京の研究所で働く人々は毎日新しい計算機の設計について議論しています。';
const LONG =
  'The rollout plan covers staging, canary, and full production phases with rollback checkpoints at each step. ';

/** Long English, CJK and mixed memories, chunked documents, and entities with long CJK descriptions. */
async function seedLongAndCjk(t: Tenant): Promise<void> {
  const memories = Array.from({ length: 60 }, (_, i) => ({
    content:
      i % 3 === 0
        ? `${i}: ${LONG.repeat((i % 7) + 1)}`
        : i % 3 === 1
          ? `${i}: ${CJK.repeat((i % 9) + 1)}`
          : `${i}: ${CJK} ${LONG} 🚀 ${CJK.repeat(i % 4)}`,
    kind: (['decision', 'fact', 'observation', 'lesson'] as const)[i % 4],
  }));
  await remember(t, memories);
  for (const [title, text] of [
    ['Plan', LONG.repeat(40)],
    ['設計', CJK.repeat(60)],
  ] as const) {
    assert.equal((await t.post('/v1/documents', { content: text, title })).status, 201);
  }
  await seedEntities(
    t,
    Array.from({ length: 12 }, (_, i) => ({
      key: `k${i}`,
      name: `計算機 ${i}`,
      type: 'Concept',
      description: CJK.repeat(i + 1),
    })),
    [],
  );
}

describe('context budget', function () {
  this.timeout(600_000); // the shared 2-core machine runs many engines at once

  it('never exceeds max_tokens for every budget from 256 to 8000 on long and CJK items (both tokenizers)', async () => {
    const t = await newTenant(0);
    await seedLongAndCjk(t);
    const graph = harness().service.deps.graph;
    for (const [tokenizer, count] of [
      ['cl100k_base', cl100k],
      ['o200k_base', o200k],
    ] as const) {
      for (const format of ['markdown', 'json'] as const) {
        const def = normalizeDefinition({ budget: { max_tokens: 8000, tokenizer }, format });
        const now = new Date().toISOString();
        const gathered = await gatherCandidates(graph, { projectId: t.projectId, def, query: null, asOf: null, now });
        const ranked = rankCandidates(def.planes, gathered.candidates);
        const counter = new TokenCounter(tokenizer);
        let previous = -1;
        // Bounded time on a shared machine: markdown/cl100k every value from 256 to 400 and every
        // 17th beyond; the other three combinations every 53rd value; 8000 always.
        const main = tokenizer === 'cl100k_base' && format === 'markdown';
        const values: number[] = [];
        for (let max = 256; max < 8000; max += main ? (max < 400 ? 1 : 17) : 53) values.push(max);
        values.push(8000);
        for (const max of values) {
          const fitted = fitBudget(
            { ...def, budget: { ...def.budget, max_tokens: max } },
            ranked,
            [],
            rendererFor(format),
            counter,
            { query: '', slice: null },
            max,
          );
          assert.ok(fitted.usedTokens <= max, `${tokenizer} ${format} ${max}: used ${fitted.usedTokens}`);
          assert.equal(
            count(fitted.text, AS_TEXT),
            fitted.usedTokens,
            `${tokenizer} ${format} ${max}: used_tokens is the real count of the text`,
          );
          assert.ok(fitted.usedTokens >= previous - 400, `${max}: a larger budget does not collapse the pack`);
          previous = fitted.usedTokens;
        }
      }
    }
  });

  it("draws the same relationships from the chosen entities' edges as from every candidate's", async () => {
    // The compile reads only the chosen entities' relationships (items are chosen before them).
    const t = await newTenant(0);
    const n = 40;
    const entities = Array.from({ length: n }, (_, i) => ({
      key: `k${i}`,
      name: `Node ${i}`,
      type: 'Concept',
      description: LONG.repeat(6), // about 120 tokens: a partial pack leaves room for relationships
    }));
    const rels = Array.from({ length: n * 2 }, (_, i): [string, string, string] => [
      `k${i % n}`,
      i % 2 ? 'RELATED_TO' : 'DEPENDS_ON',
      `k${(i * 7 + 3) % n}`,
    ]).filter(([a, , b]) => a !== b);
    await seedEntities(t, entities, rels);
    const graph = harness().service.deps.graph;
    const def = normalizeDefinition({ planes: ['entity'] });
    const now = new Date().toISOString();
    const gathered = await gatherCandidates(graph, { projectId: t.projectId, def, query: null, asOf: null, now });
    const ranked = rankCandidates(def.planes, gathered.candidates);
    const edgesAmong = async (ids: string[]) =>
      (await graph.read((tx) => tx.run('context/edges_among', { ids, project_id: t.projectId, valid_at: now }))).map(
        (e) => ({
          source: String(e.source),
          type: String(e.type),
          target: String(e.target),
        }),
      );
    const all = await edgesAmong((gathered.candidates.get('entity') ?? []).map((c) => c.id));
    assert.ok(all.length >= 60, `${all.length} relationships among the candidates`);
    let partial = 0;
    // Every 50 tokens from 500 to 3000: whether a budget leaves room for a relationship line depends on how many
    // tokens the chosen entities' ids take (random UUIDs), so a handful of fixed budgets could all leave none (as
    // one CI run did); 51 budgets each with its own remainder cannot.
    const budgets = Array.from({ length: 51 }, (_, i) => 500 + 50 * i);
    for (const max of [...budgets, 8000]) {
      const counter = new TokenCounter('cl100k_base');
      const header = { query: '', slice: null };
      const d = { ...def, budget: { ...def.budget, max_tokens: max } };
      const whole = fitBudget(d, ranked, all, rendererFor('markdown'), counter, header, max);
      const selection = selectItems(d, ranked, rendererFor('markdown'), counter, header, max);
      const chosen = selectedEntityIds(selection);
      if (chosen.length < n && whole.edges.length > 0) partial += 1;
      const fitted = fitSelection(selection, await edgesAmong(chosen));
      assert.deepEqual(fitted, whole, `max_tokens ${max}`);
    }
    assert.ok(
      partial >= 10,
      `${partial} budgets: some budgets choose part of the entities and draw relationships among them`,
    );
  });

  it('compiles within budget over HTTP at the edges of the range, CJK counted by the BPE tokenizer', async () => {
    const t = await newTenant(0);
    await seedLongAndCjk(t);
    for (const [max, tokenizer] of [
      [256, 'cl100k_base'],
      [257, 'o200k_base'],
      [1000, 'cl100k_base'],
      [8000, 'o200k_base'],
    ] as const) {
      const reply = await t.post('/v1/context/compile', { slice: { budget: { tokenizer } }, max_tokens: max });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      const p = reply.body;
      assert.ok(p.budget.used_tokens <= max);
      assert.equal((tokenizer === 'cl100k_base' ? cl100k : o200k)(p.text, AS_TEXT), p.budget.used_tokens);
      assert.equal(p.truncated, true);
      assert.equal(p.omitted.count, p.omitted.by_reason.budget + p.omitted.by_reason.duplicate);
      assert.match(p.text, /… \d+ more candidates omitted to fit \d+ tokens\.\n$/);
    }
    // A CJK-only pack: characters ÷ 4 would claim far fewer tokens than the text really takes.
    const cjk = await t.post('/v1/context/compile', { slice: { planes: ['entity'] }, max_tokens: 2000 });
    assert.ok(
      cjk.body.budget.used_tokens > cjk.body.text.length / 2,
      `${cjk.body.budget.used_tokens} tokens for ${cjk.body.text.length} characters`,
    );
  });

  it('fills each share first-fit (a big item is skipped, not a stop) and spills unused budget over', async () => {
    const t = await newTenant(0);
    const { ids } = await remember(t, [
      { content: `Huge note on kittens: ${LONG.repeat(60)}`, kind: 'decision' },
      { content: 'Small note on kittens.', kind: 'fact' },
      { content: 'Another small note on kittens.', kind: 'fact' },
    ]);
    await t.post('/v1/documents', { content: `Kittens handbook. ${LONG.repeat(20)}`, title: 'Handbook' });
    const body = (sections: Record<string, number>) => ({
      slice: { planes: ['memory', 'document'], budget: { max_tokens: 600, sections } },
      query: 'kittens',
      explain: true,
    });
    const reply = await t.post('/v1/context/compile', body({ memory: 0.8, document: 0.2 }));
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const p = reply.body;
    assert.ok(!packIds(p).includes(ids[0]), 'the huge memory does not fit');
    assert.ok(packIds(p).includes(ids[1]) && packIds(p).includes(ids[2]), 'smaller memories after it still do');
    assert.equal(p.candidates.find((c: { id: string }) => c.id === ids[0]).omitted_reason, 'budget');
    // Memories take far less than their share: the document chunk, larger than its own quota, uses the rest.
    assert.ok(
      p.budget.sections.document.used_tokens > p.budget.sections.document.quota,
      JSON.stringify(p.budget.sections),
    );
    // With a zero share, documents still get what memories leave.
    const spill = await t.post('/v1/context/compile', body({ memory: 1 }));
    assert.equal(spill.body.budget.sections.document.quota, 0);
    assert.ok(sectionIds(spill.body, 'document').length >= 1);
    assert.ok(spill.body.budget.used_tokens <= 600);
  });
});
