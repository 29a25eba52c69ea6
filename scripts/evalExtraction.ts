// npm run eval:extraction — entity and relation precision, recall and F1 per type and overall on
// the committed labelled set (test/extractor/eval/paragraphs.json), for the built-in extractor
// and, when LLM_BASE_URL is set, the LLM extractor. --verbose lists each paragraph's misses;
// --only <id prefix> scores a subset ("--only h": the held-out paragraphs).
import { BuiltinExtractor, LlmExtractor } from '../src/extractor/index.js';
import type { Extractor } from '../src/extractor/types.js';
import {
  evaluate,
  type Evaluation,
  formatEvaluation,
  loadGoldSet,
  pooledCorrelation,
} from '../test/extractor/eval/score.js';
import { customShape, generalShape } from '../test/extractor/eval/shape.js';

const verbose = process.argv.includes('--verbose');
const only = process.argv.indexOf('--only');
const prefix = only >= 0 ? (process.argv[only + 1] ?? '') : '';
const gold = loadGoldSet().filter((p) => p.id.startsWith(prefix));
const extractors: Extractor[] = [new BuiltinExtractor()];
if (process.env.LLM_BASE_URL) {
  extractors.push(
    new LlmExtractor({
      baseUrl: process.env.LLM_BASE_URL,
      apiKey: process.env.LLM_API_KEY,
      model: process.env.LLM_MODEL ?? 'gpt-4o-mini',
    }),
  );
}
console.log(
  `evaluation set: ${gold.length} paragraphs, ${gold.reduce((n, p) => n + p.entities.length, 0)} gold entities, ${gold.reduce((n, p) => n + p.relations.length, 0)} gold relations`,
);
const runs: Evaluation[] = [];
const print = (title: string, result: Evaluation) => {
  runs.push(result);
  console.log(formatEvaluation(title, result));
  if (!verbose) return;
  for (const p of result.paragraphs) {
    if (p.falsePositives.length || p.falseNegatives.length)
      console.log(
        `  ${p.id} f1 ${p.f1.toFixed(2)} q ${p.quality.toFixed(2)}  +[${p.falsePositives.join('; ')}]  -[${p.falseNegatives.join('; ')}]`,
      );
  }
};
for (const extractor of extractors) {
  for (const effort of ['agentic', 'agentic_plus'] as const)
    print(`${extractor.name} (${effort})`, await evaluate(extractor, gold, { effort }, generalShape));
}
// The same shape with renamed relationship types: only its own patterns to go by (as for a custom shape).
print(
  'builtin (agentic), relationship types renamed: shape patterns only',
  await evaluate(new BuiltinExtractor(), gold, { effort: 'agentic' }, customShape),
);
console.log(
  `quality/F1 correlation pooled over the ${runs.length} runs above (${runs.reduce((n, r) => n + r.paragraphs.length, 0)} extractions): ${pooledCorrelation(runs).toFixed(3)}`,
);
