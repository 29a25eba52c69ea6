// The hops by meaning (docs/recall.md, "Hops"): the project's terms nearest the question by meaning, walked to the
// memories that mention them. A question asks for a kind of thing ("What instruments does Melanie play?", "Which
// European countries has Maria visited?") that the memories holding the answer name only as instances ("violin",
// "Spain"): neither its words nor the memory's whole vector join them, but the term's own vector is near the
// question. Two statements (the nearest terms, then the walk), after the question's vector.
import type { Reader } from '../db/graph.js';
import { NO_MATCH_ID } from '../db/warming.js';
import { nearest, type Question } from '../search/meaning.js';

/** How many of the question's nearest terms the walk may start from. */
export const WALK_TERMS = 20;

/** A term starts the walk when its cosine is within this of the nearest term's; its weight is by how far within. */
export const WALK_SPREAD = 0.09;

/** A term more memories than this mention says little of any one of them (and would make the walk slow): not walked. */
export const WALK_MAX_DEGREE = 500;

/**
 * The memories the walk reaches from the question's nearest terms (rows as the recall statements give them), best
 * walk first; none for a question without a vector (nearest reads none). Each term within WALK_SPREAD of the nearest
 * weighs (its cosine - (nearest's - WALK_SPREAD)), times its rarity in the statement.
 */
export async function walkFromMeaning<R extends object>(
  tx: Reader,
  params: Record<string, unknown>,
  question: Question,
  candidates: number,
): Promise<R[]> {
  const near = await nearest(tx, 'memories/near_terms', params, question, WALK_TERMS);
  const walkTo = (walk: { key: string; weight: number }[]) =>
    tx.run<R>('memories/term_walk', {
      ...params,
      walk,
      vector: question.vector,
      model: question.model,
      max_degree: WALK_MAX_DEGREE,
      candidates,
    });
  if (near.length === 0) {
    if (params.project_id === NO_MATCH_ID) for (const size of REHEARSED_WALKS) await walkTo(placeholders(size));
    return [];
  }
  const from = near[0]!.similarity - WALK_SPREAD;
  return walkTo(near.filter((t) => t.similarity > from).map((t) => ({ key: t.id, weight: t.similarity - from })));
}

/**
 * The start-up rehearsal's project (NO_MATCH_ID, src/search/warmReads.ts) has no terms, so no walk would follow its
 * nearest terms and a user's first list question after a start would plan memories/term_walk (0.6-0.9 s on a fresh
 * engine). Its walk goes from placeholder terms that match nothing instead, one walk of each size class the plan cache
 * keys a list by (src/db/warming.ts, sizeClass: 1; 2-10; 11-100 terms).
 */
const REHEARSED_WALKS = [1, 5, WALK_TERMS];

const placeholders = (size: number) => Array.from({ length: size }, () => ({ key: NO_MATCH_ID, weight: 1 }));

/** The verbs that end a question's opening noun phrase ("What European countries | has Maria visited?"). */
const VERBS = new Set('is are was were do does did has have had will would can could should may might must'.split(' '));

/** Words of an opening noun phrase that end in s without being plural nouns. */
const NOT_PLURAL = new Set(['this', 'its', 'his', 'hers', 'yours', 'ours', 'theirs', 'whose']);

const plural = (word: string): boolean =>
  word.length > 3 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith("'s") && !NOT_PLURAL.has(word);

/**
 * Whether the question asks for several things, whose answers are told apart in several memories: "What activities
 * does Melanie partake in?", "Which European countries has Maria been to?", "What kind of art…", "Where has Melanie
 * camped?", "How many times…", "What do Jon and Gina both have in common?". "What" or "which" opens it and a plural
 * noun is among the (at most three) words before its verb. English only; a question of another language, or about
 * one thing, is not walked by meaning (docs/recall.md, "Hops by meaning": on one thing the walk ranks its topic's other
 * memories over the answer).
 */
export function asksForSeveral(query: string): boolean {
  const words: string[] = query.toLowerCase().match(/[\p{L}\p{N}'+-]+/gu) ?? [];
  const [first, second] = words;
  if (words.includes('both') || /\bin common\b/.test(query.toLowerCase())) return true;
  if (first === 'how' && second === 'many') return true;
  if (first === 'where' && (second === 'has' || second === 'have')) return true;
  if (first !== 'what' && first !== 'which') return false;
  const phrase: string[] = [];
  for (const w of words.slice(1, 4)) {
    if (VERBS.has(w)) break;
    phrase.push(w);
  }
  return phrase.some((w) => ['kind', 'kinds', 'type', 'types', 'sort', 'sorts'].includes(w) || plural(w));
}
