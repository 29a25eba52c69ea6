// The hops by meaning (docs/recall.md, "Hops"): the project's terms nearest the question by meaning, walked to the
// memories that mention them. A question asks for a kind of thing ("What instruments does Melanie play?", "Which
// European countries has Maria visited?") that the memories holding the answer name only as instances ("violin",
// "Spain"): neither its words nor the memory's whole vector join them, but the term's own vector is near the
// question. One statement after the question's vector: in a small project, whose terms' vectors the process holds
// (src/memories/termVectors.ts), the walk from the nearest terms compared here (memories/walk_held); in a larger one,
// the nearest terms through the vector index and the walk from them (memories/walk_near).
import type { Reader } from '../db/graph.js';
import { EXACT_UP_TO, nearestRow, similarityFloor, type Question } from '../search/meaning.js';
import { walkStarts, type TermVectors } from './termVectors.js';

/** How many of the question's nearest terms the walk may start from. */
export const WALK_TERMS = 20;

/** A term starts the walk when its cosine is within this of the nearest term's; its weight is by how far within. */
export const WALK_SPREAD = 0.09;

/** A term more memories than this mention says little of any one of them (and would make the walk slow): not walked. */
export const WALK_MAX_DEGREE = 500;

/** How often a small project's walk reads its terms' vectors again, finding them changed, before walk_near answers. */
const HELD_TRIES = 2;

/**
 * The memories the walk reaches from the question's nearest terms (rows as the recall statements give them), best
 * walk first; none for a question without a vector. Each of the WALK_TERMS nearest terms within WALK_SPREAD of the
 * nearest weighs (its cosine - (nearest's - WALK_SPREAD)), times its rarity. A project of at most EXACT_UP_TO terms
 * has them compared here, from the vectors `held` holds, and its walk is one statement that also checks they are
 * still the project's (memories/walk_held); when they are not (a term made or given its vector since), they are read
 * again. A larger project's terms come through the vector index, in the walk's own statement (memories/walk_near: as
 * two statements the walk of a list question cost a round trip and a statement more, bench/recallScale.ts); when the
 * index must be asked deeper for enough of the project's terms, the statement runs again, deeper.
 */
export async function walkFromMeaning<R extends object>(
  tx: Reader,
  held: TermVectors,
  params: Record<string, unknown> & { project_id: string },
  question: Question,
  candidates: number,
): Promise<R[]> {
  if (question.vector === null || question.model === null) return [];
  const shared = { ...params, max_degree: WALK_MAX_DEGREE, candidates };
  for (let tries = 0; tries < HELD_TRIES; tries += 1) {
    const terms = await held.held(tx, params.project_id, question.model, tries > 0);
    if (terms === 'large') break;
    const near = walkStarts(terms, question.vector, similarityFloor(question.model), WALK_TERMS, WALK_SPREAD);
    const row = await tx.one<{ current: boolean; walked: R[] }>('memories/walk_held', {
      ...shared,
      walk: { held: terms.keys, near },
      vector: question.vector,
      model: question.model,
      exact_up_to: EXACT_UP_TO,
    });
    if (row?.current) return row.walked;
  }
  const row = await nearestRow<object, { walked: R[] }>(
    tx,
    'memories/walk_near',
    { ...shared, walk_terms: WALK_TERMS, walk_spread: WALK_SPREAD },
    question,
    WALK_TERMS,
  );
  return row?.walked ?? [];
}

/** The auxiliaries that end a question's opening noun phrase ("What European countries | has Maria visited?"). */
const AUXILIARIES = new Set(
  'is are was were do does did has have had will would can could should may might must'.split(' '),
);

/** An auxiliary, or one in its negative form ("wouldn't", "won't", "can't"). */
const auxiliary = (word: string): boolean => {
  if (AUXILIARIES.has(word)) return true;
  if (!word.endsWith("n't")) return false;
  const stem = word.slice(0, -3);
  return AUXILIARIES.has(stem) || ['wo', 'ca', 'sha'].includes(stem);
};

/** Words of an opening noun phrase that end in s without being plural nouns. */
const NOT_PLURAL = new Set(['this', 'its', 'his', 'hers', 'yours', 'ours', 'theirs', 'whose']);

/** Words that open a verb's object: after "What helps", "What causes the", "What makes you" the -s word is a verb. */
const OBJECT_OPENERS = new Set(
  'me you him her it us them my your his its our their this that these those the a an'.split(' '),
);

const KIND = new Set(['kind', 'kinds', 'type', 'types', 'sort', 'sorts']);

/** Plural nouns not in -s. */
const IRREGULAR_PLURALS = new Set(['people', 'children', 'men', 'women']);

/** A word that may be a plural noun (or a verb in the third person: the words after it tell). */
const plural = (word: string): boolean =>
  IRREGULAR_PLURALS.has(word) ||
  (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith("'s") && !NOT_PLURAL.has(word));

/** Prepositions that may open a question before its "what/which" ("In what ways…", "From which countries…"). */
const PREPOSITIONS = new Set('in on at from to for with by about into during through'.split(' '));

/**
 * Whether the question asks for several things, whose answers are told apart in several memories: "What activities
 * does Melanie partake in?", "Which European countries has Maria been to?", "What kind of art…", "Where has Melanie
 * camped?", "How many times…", "What do Jon and Gina both have in common?". "What" or "which" opens it and its opening
 * noun phrase (at most three words) holds "kind/type/sort" or ends in a plural noun; a preposition may come first ("In
 * what ways…"). A plural verb alone is not enough ("What are Maria's dogs' names?": walked, three development questions
 * of that form lost an answer from the top five, docs/recall.md). A word in -s ends the phrase as a plural noun when
 * an auxiliary, "of" or nothing follows it ("What books has…", "What areas of…"), or, right after "what/which", when
 * no object follows it ("What attributes describe John?"); else it is the question's verb, in the third person:
 * "Which vendor handles wages?", "What motivates Joanna…", "What causes the outage?" ask for one thing. English only;
 * a question of another language, or about one thing, is not walked by meaning (docs/recall.md, "Hops by meaning": on
 * one thing the walk ranks its topic's other memories over the answer).
 */
export function asksForSeveral(query: string): boolean {
  // "artists/bands" is read as its first word; the curly apostrophe as the straight one.
  const text = query.replace(/\/[\p{L}\p{N}'’-]+/gu, '').replace(/’/g, "'");
  const raw: string[] = text.match(/[\p{L}\p{N}'+-]+/gu) ?? [];
  if (PREPOSITIONS.has(raw[0]?.toLowerCase() ?? '') && /^(what|which)$/i.test(raw[1] ?? '')) raw.shift();
  const words = raw.map((w) => w.toLowerCase());
  const [first, second] = words;
  if (words.includes('both') || /\bin common\b/.test(text.toLowerCase())) return true;
  if (first === 'how' && second === 'many') return true;
  if (first === 'where' && (second === 'has' || second === 'have')) return true;
  if (first !== 'what' && first !== 'which') return false;
  for (let i = 1; i < Math.min(words.length, 4); i++) {
    const word = words[i]!;
    if (auxiliary(word)) return false;
    if (KIND.has(word)) return true;
    if (!plural(word)) continue;
    const next = words[i + 1];
    if (next === undefined || next === 'of' || auxiliary(next)) return true;
    const object = OBJECT_OPENERS.has(next) || /^\p{Lu}/u.test(raw[i + 1]!) || /\p{N}/u.test(next);
    return i === 1 && !object;
  }
  return false;
}
