// Who is asked about is the graph's; what is asked is meaning's and the words' (docs/recall.md, "Who speaks"). In a
// conversation stored turn by turn ("Joanna: ..."), the people who speak are named in almost every question ("What
// animal do both Nate and Joanna like?") and in many turns that say nothing of the answer ("Thanks, Nate!", "Hey
// Joanna!"): asked with their names, meaning and the words find those turns, which share the names, before the ones
// that share the question's content. The hops already rank what each of them said (a speaker's MENTIONS, weight 1).
// So the names of the people the project's memories are said by are taken out of the question before meaning embeds
// it (each read as "someone") and before the words read it; the hops, the time channel and the rare-word rule read
// the question as asked. A name of someone who does not speak in the project ("What does John like about LeBron
// James?") is content, and stays. And since meaning and the words then no longer see who said a line, what other people
// said to each other, in conversations the named speakers are not found in, ranks after the rest (othersLast).
import type { Graph } from '../db/graph.js';
import { recallTerms, type RecallTerm } from '../extractor/recallTerms.js';
import type { GraphDeps } from '../shared/deps.js';
import type { EmbedderDeps } from '../embeddings/model.js';
import { contentWords, type SearchMode } from '../search/hybrid.js';
import { embedQuestion, type Question } from '../search/meaning.js';
import { phase } from '../shared/serverTiming.js';
import { escapeRegExp } from '../shared/regex.js';

/** The question as each reader of it reads it. */
export interface AskedQuestion {
  /** What meaning embeds: the speakers' names read as "someone". */
  meaning: string;
  /** What the words read: the speakers' names left out (the question as asked when nothing else would be left). */
  words: string;
  /** The keys of the speakers taken out (src/extractor/recallTerms.ts), in the order the question names them. */
  speakers: string[];
}

/** The question as asked, for every reader (no speaker named, or nothing to look them up in). */
export const askedAsIs = (query: string): AskedQuestion => ({ meaning: query, words: query, speakers: [] });

/** A written name (and its possessive) as a whole word, case-insensitive. */
const namePattern = (name: string): RegExp =>
  new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(name)}(['’]s)?(?![\\p{L}\\p{N}])`, 'giu');

/**
 * The question without the names of the people who speak in the project: one statement (memories/speakers_named)
 * when the question names a person, none otherwise. `read`: the question's terms, when the caller has them.
 */
export async function askedOfSpeakers(
  graph: Graph,
  projectId: string,
  query: string,
  read: readonly RecallTerm[] = recallTerms(query),
): Promise<AskedQuestion> {
  const people = read.filter((t) => t.kind === 'person');
  if (people.length === 0) return askedAsIs(query);
  // Timed as the request's phase `speakers` (Server-Timing), before the question's embedding, which waits for it.
  const row = await phase('speakers', () =>
    graph.readOne<{ speakers: string[] }>(
      'memories/speakers_named',
      { project_id: projectId, keys: [...new Set(people.map((p) => p.key))] },
      { purpose: 'recall:speakers' },
    ),
  );
  const speaking = new Set(row?.speakers ?? []);
  return askedWithout(
    query,
    people.filter((p) => speaking.has(p.key)),
  );
}

/**
 * The question without its speakers and meaning's vector of it, for a caller that embeds the question once for every
 * plane it reads (a compile, a loop's gather) and gives both to graphRecall.
 */
export async function embedAsked(
  deps: GraphDeps & EmbedderDeps,
  projectId: string,
  query: string,
  mode: SearchMode,
): Promise<{ asked: AskedQuestion; question: Question }> {
  const asked = await askedOfSpeakers(deps.graph, projectId, query);
  return { asked, question: await embedQuestion(deps, asked.meaning, mode) };
}

/** The question without the names of `speakers` (terms of the question, as recallTerms reads them). */
export function askedWithout(query: string, speakers: readonly Pick<RecallTerm, 'key' | 'name'>[]): AskedQuestion {
  if (speakers.length === 0) return askedAsIs(query);
  let meaning = query;
  let words = query;
  for (const person of speakers) {
    meaning = meaning.replace(namePattern(person.name), (_m, possessive?: string) =>
      possessive ? "someone's" : 'someone',
    );
    words = words.replace(namePattern(person.name), ' ');
  }
  words = words.replace(/\s+/g, ' ').trim();
  return {
    meaning,
    words: contentWords(words).length > 0 ? words : query,
    speakers: [...new Set(speakers.map((p) => p.key))],
  };
}

/** Who says a candidate line (its speaker's term key; null for no transcript line) and in which episode. */
export interface SaidLine {
  speaker: string | null;
  episode: string | null;
}

/**
 * Other people's conversations last (docs/recall.md, the section of that name): when the question names people who
 * speak in the project, a line said by someone else in a conversation where none of them was found (no line of theirs
 * among the candidates of its episode, or no episode) is about other people, and ranks after every other result, each
 * side in its own order. Their partners' lines in their own conversations stay where they ranked (the answer is at
 * times the other's line: "Caroline: Your pottery is lovely, Melanie"), as do memories that are no transcript line and
 * those `pinned` (an identifier or rare word of the question puts them first, always).
 */
export function othersLast<T extends { id: string }>(
  ranked: readonly T[],
  said: ReadonlyMap<string, SaidLine>,
  speakers: readonly string[],
  pinned: (r: T) => boolean,
): T[] {
  if (speakers.length === 0) return [...ranked];
  const named = new Set(speakers);
  const theirs = new Set<string>();
  for (const line of said.values())
    if (line.speaker !== null && named.has(line.speaker) && line.episode !== null) theirs.add(line.episode);
  const elsewhere = (r: T): boolean => {
    const line = said.get(r.id);
    if (!line || line.speaker === null || named.has(line.speaker) || pinned(r)) return false;
    return line.episode === null || !theirs.has(line.episode);
  };
  return [...ranked.filter((r) => !elsewhere(r)), ...ranked.filter(elsewhere)];
}
