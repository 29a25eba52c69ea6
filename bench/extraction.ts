// Throughput of the built-in extractor on ~200 KB of generated prose, so a change that slows
// extraction shows up as a number: npx tsx bench/extraction.ts
import { BuiltinExtractor } from '../src/extractor/builtin.js';
import type { ExtractOptions } from '../src/extractor/types.js';
import { generalShape } from '../test/extractor/fixtures.js';

const TARGET_CHARS = 200_000;
const RUNS = 5;

// The extraction tests' general shape (six entity types; WORKS_FOR, LOCATED_IN, CREATED, PART_OF).
const shape = generalShape;

const first = ['Ada', 'Charles', 'Grace', 'Alan', 'Katherine', 'Tim', 'Margaret', 'Linus', 'Barbara', 'Dennis'];
const last = [
  'Lovelace',
  'Babbage',
  'Hopper',
  'Turing',
  'Johnson',
  'Berners-Lee',
  'Hamilton',
  'Torvalds',
  'Liskov',
  'Ritchie',
];
const orgs = [
  'Analytical Engines Ltd',
  'Microsoft',
  'Apple Inc',
  'Bell Labs',
  'Acme Corp',
  'the University of Cambridge',
];
const places = ['London', 'Seattle', 'Paris', 'Boston', 'Zürich', 'New York'];
const products = ['the Difference Engine', 'the Apollo project', 'the Mark I Compiler', 'the Unix system'];

/** Deterministic prose: the same every run, so figures compare across commits. */
function generate(chars: number): string {
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < chars; i++) {
    // A new person, organisation and place every four sentences, cycling through combinations.
    const k = Math.floor(i / 4);
    const person = `${first[k % first.length]} ${last[(k + Math.floor(k / first.length)) % last.length]}`;
    const sentence = [
      `${person} works for ${orgs[k % orgs.length]}.`,
      `The company is headquartered in ${places[(k * 5) % places.length]}, where it employs many engineers.`,
      `Later, ${first[k % first.length]} designed ${products[k % products.length]} with colleagues from ${places[(k * 7) % places.length]}.`,
      `Nobody expected that ${person.split(' ')[1]} would also present it at the Web Summit conference in ${k % 2 ? 'spring' : 'autumn'} ${1990 + (k % 30)}.`,
    ][i % 4];
    parts.push(sentence ?? '');
    length += (sentence ?? '').length + 1;
    if (i % 12 === 11) parts.push('\n\n');
  }
  return parts.join(' ');
}

async function measure(text: string, options: ExtractOptions): Promise<void> {
  const extractor = new BuiltinExtractor();
  await extractor.extract(text.slice(0, 5_000), shape, options); // warm-up: lexicon and JIT
  const times: number[] = [];
  let entities = 0;
  let relationships = 0;
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    const result = await extractor.extract(text, shape, options);
    times.push(performance.now() - started);
    entities = result.entities.length;
    relationships = result.relationships.length;
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] ?? 0;
  const perSecond = Math.round(text.length / (median / 1000));
  console.log(
    `${options.effort.padEnd(12)} ${perSecond.toLocaleString('en-US')} chars/s (median of ${RUNS} runs: ${median.toFixed(0)} ms for ${text.length.toLocaleString('en-US')} chars; ${entities} entities, ${relationships} relationships)`,
  );
}

const text = generate(TARGET_CHARS);
await measure(text, { effort: 'agentic' });
await measure(text, { effort: 'agentic_plus' });
