// npm run eval:recall — R@1, R@5 and MRR for lexical, semantic and hybrid memory search on the
// team's labelled recall set (test/recall/corpus.ts) and its held-out questions (test/recall/heldout.ts),
// against the real Neo4j and embedding engine that the test harness starts (its ports:
// GKS_TEST_NEO4J_PORT, default 17687; the engine on +5).
// --verbose lists every question with its rank per mode.
import { newTenant } from '../test/support/api.js';
import { startHarness, stopHarness } from '../test/support/harness.js';
import { evaluate, formatFigures, loadCorpus, MODES, RECALL_SETS, waitForVectors } from '../test/recall/score.js';
import { MEMORIES, QUESTIONS } from '../test/recall/corpus.js';
import { HELD_OUT } from '../test/recall/heldout.js';

const verbose = process.argv.includes('--verbose');
await startHarness();
try {
  const tenant = await newTenant(100_000);
  const began = Date.now();
  const ids = await loadCorpus(tenant);
  await waitForVectors(tenant.projectId);
  console.log(
    `recall set: ${MEMORIES.length} memories (embedded in ${((Date.now() - began) / 1000).toFixed(1)} s), ` +
      `${QUESTIONS.length} questions and ${HELD_OUT.length} held-out ones, top 10 read`,
  );
  for (const [name, questions] of RECALL_SETS) {
    const results = await evaluate(tenant, ids, questions);
    console.log(`\n${name}\n${formatFigures(results)}`);
    if (verbose)
      questions.forEach((q, i) =>
        console.log(`${MODES.map((m) => String(results[m][i]!.rank ?? '-').padStart(3)).join(' ')}  ${q.question}`),
      );
  }
} finally {
  await stopHarness();
}
