// Hybrid memory recall with the graph (docs/recall.md): beside the words (full-text) and the meaning (each
// memory's vector), the channels of src/memories/channels.ts: the memory's context vector, its episode, the hops
// through the people and things the question names, and the time the question names. Every channel ranks its own
// candidates; the rankings are fused in one total order (src/search/hybrid.ts), after which two precision rules
// apply: the question's rare words put the memories holding them first, and a result meaning alone found, far
// below the best match or below the model's meaning floor, is not returned.
import type { Reader } from '../db/graph.js';
import type { GraphDeps } from '../shared/deps.js';
import type { EmbedderDeps } from '../embeddings/model.js';
import { fullTextHits } from '../db/fullText.js';
import { luceneQuery } from '../db/tenant.js';
import { recallTerms, speakerOf, type RecallTerm } from '../extractor/recallTerms.js';
import { escapeRegExp } from '../shared/regex.js';
import { askedOfSpeakers, othersLast, type AskedQuestion, type SaidLine } from './speakers.js';
import {
  contentWords,
  fuseRankings,
  wordWeight,
  type HybridResult,
  type RankedHit,
  type Ranking,
} from '../search/hybrid.js';
import { RRF_K } from '../search/fusion.js';
import { embedQuestion, nearest, similarityFloor, type Question } from '../search/meaning.js';
import { spanParams, timeWindows, toldSpans, type Span, type TimeWindow } from '../search/timeWindows.js';
import {
  episodeRanking,
  hopRanking,
  RARE_TERM,
  timeRanking,
  type CandidateLinks,
  type ChannelCandidate,
  type RecallChannel,
} from './channels.js';
import { episodesByWords } from '../episodes/store.js';
import { isEnglishWord } from '../search/dictionary.js';
import { phase, phaseSync } from '../shared/serverTiming.js';
import { asksForSeveral, walkFromMeaning } from './termWalk.js';
import { termVectorsOf } from './termVectors.js';

export { RECALL_CHANNELS, type RecallChannel } from './channels.js';
import type { MemoryProps } from './views.js';

/** A candidate as the recall statements give it: what ranking reads, and its links (declared, not checked). */
export interface CandidateRow {
  /** Null for a memory deleted while the statement read it. */
  memory: Pick<MemoryProps, 'id' | 'name' | 'content'> | null;
  score?: number;
  similarity?: number | null;
  context_similarity?: number | null;
  links?: CandidateLinks | null;
}

export type CandidateHit = RankedHit<CandidateRow>;

/** The text an identifier or a word is looked for in: the memory's name and content. */
export const candidateText = (m: Pick<MemoryProps, 'name' | 'content'>): string =>
  `${m.name ?? ''}\n${m.content ?? ''}`;

/**
 * A question word held by at most this many memories of the project is rare: it names something the project barely
 * mentions (a codename, a surname, a part), so the memories holding it come first.
 */
export const RARE_WORD = 3;

/**
 * A question whose nearest memory by meaning is below this cosine matches nothing by meaning (e5 models; others:
 * any): on the team's recall set, the nearest memory of every real question was at 0.798 or above, of ten off-topic
 * questions at 0.769-0.808, half of them below 0.79 (docs/recall.md, "Precision").
 */
export function meaningMatch(modelId: string | null): number {
  return modelId !== null && /e5/i.test(modelId) ? 0.79 : -1;
}

/**
 * A result meaning alone found is kept within this cosine of the nearest memory: on the recall set, no answer in the
 * top five was further than 0.05 below the nearest (95% within 0.025).
 */
export const MEANING_SPREAD = 0.05;

/**
 * The most memories the time channel's statement compares with the question: windows holding more are ranked by the
 * candidates of words, meaning and context observed in them alone (timeRanking), since any TIME_SCAN of a larger
 * window is an arbitrary part of it. At 100k memories (bench/recallScale.ts) a scan of 2,000 cost 65 ms p50 whatever
 * the window, and one of 500 cost 20 ms for windows of 2,000-50,000 memories: the largest share of a question naming
 * a time, spent on memories the index order picked.
 */
export const TIME_SCAN = 500;

export interface GraphRecallRequest {
  projectId: string;
  query: string;
  limit: number;
  /** How many candidates each channel ranks. */
  candidates: number;
  /** The statements' shared parameters: now, valid_at, kinds, episode. */
  base: { project_id: string; now: string; valid_at: string; kinds: string[] | null; episode: string | null };
  channels: ReadonlySet<RecallChannel>;
  /** semantic mode: meaning and context only, and no rare-word rule. */
  semanticOnly: boolean;
  /**
   * The question already embedded by the caller (a compile embeds it once for every plane), from `asked.meaning`,
   * with `asked` (askedOfSpeakers) given beside it.
   */
  question?: Question;
  /** The question as meaning and the words read it (askedOfSpeakers); read here when not given. */
  asked?: AskedQuestion;
}

export interface GraphRecallResult {
  fused: HybridResult<CandidateRow>[];
  question: Question;
  /** The time windows the question named (empty without any, or with the time channel off). */
  windows: TimeWindow[];
  /** The channels that ranked (a channel asked for whose input was missing, e.g. meaning while degraded, did not). */
  served: RecallChannel[];
}

const present = (rows: CandidateRow[]): (CandidateRow & { memory: NonNullable<CandidateRow['memory']> })[] =>
  rows.filter((r): r is CandidateRow & { memory: NonNullable<CandidateRow['memory']> } => !!r.memory?.id);

const hitOf = (row: CandidateRow & { memory: NonNullable<CandidateRow['memory']> }, score: number): CandidateHit => ({
  id: row.memory.id,
  item: row,
  text: candidateText(row.memory),
  score,
});

/**
 * The terms the hops start from: the people and named things the question names ("Caroline", "Pelican Bay"). A
 * common noun ("company", "vendor") joins every memory that says it and the words already count it: walking from it
 * ranks look-alikes over meaning's answer (test/recall: hybrid R@1 0.71 to 0.64 with them), so it starts no walk.
 */
export const hopTerms = (query: string, read: readonly RecallTerm[] = recallTerms(query)): string[] => [
  ...new Set(read.filter((t) => t.kind === 'person' || t.kind === 'name').map((t) => t.key)),
];

/** The rare-word rule is the words' own: without them (semantic mode, or the words channel off) it does not apply. */
const readsWords = (request: GraphRecallRequest): boolean => request.channels.has('words') && !request.semanticOnly;

/** What recall read for a question: its vector, what it looked for, and each statement's rows. */
interface RecallReads {
  question: Question;
  /** The hops' terms, and the time windows with the spans the time channel read of them. */
  terms: string[];
  windows: TimeWindow[];
  spans: Span[];
  wordRows: CandidateRow[];
  episodeWords: { id: string }[];
  rare: RareWords;
  /** The speakers the words did not read (src/memories/speakers.ts): what they said is the words' evidence still. */
  speakers: string[];
  near: CandidateRow[];
  context: CandidateRow[];
  timed: CandidateRow[];
  /** The memories the hops reach from the terms nearest the question by meaning (src/memories/termWalk.ts). */
  walked: CandidateRow[];
}

/** Recall's ranking of a project's memories for a question, by every channel asked for. */
export async function graphRecall(
  deps: GraphDeps & EmbedderDeps,
  request: GraphRecallRequest,
): Promise<GraphRecallResult> {
  const reads = await readChannels(deps, request);
  // Then the channels beyond words and meaning rank the pool, and every ranking is fused (in process).
  return phaseSync('rank', () => rankReads(request, reads));
}

/** Embeds the question (unless given) and runs every statement the channels asked for read. */
async function readChannels(deps: GraphDeps & EmbedderDeps, request: GraphRecallRequest): Promise<RecallReads> {
  const { query, base, channels } = request;
  // The question's terms, read once (the tagger's work) for the speakers and the hops; the question without the names
  // of those who speak in the project, for meaning and the words (src/memories/speakers.ts).
  const read = recallTerms(query);
  const asked = request.asked ?? (await askedOfSpeakers(deps.graph, request.projectId, query, read));
  const lucene = luceneQuery(asked.words, request.projectId) ?? luceneQuery(query, request.projectId)!;
  const terms = channels.has('hops') ? hopTerms(query, read) : [];
  const windows = channels.has('time') ? timeWindows(query, new Date(base.valid_at)) : [];
  // What the time channel reads: each window and the week after it in which what happened is told.
  const spans = toldSpans(windows);
  const linked = { ...base, links: true, terms, rare_terms: RARE_TERM };
  const wantsMeaning = ['meaning', 'context', 'episode', 'time'].some((c) => channels.has(c as RecallChannel));
  const words = readsWords(request);
  const embedding =
    request.question !== undefined
      ? Promise.resolve(request.question)
      : phase('embed', () => embedQuestion(deps, asked.meaning, wantsMeaning ? 'hybrid' : 'lexical'));
  // An engine on this machine's cores embeds the question first: the statements run beside it would take its cores
  // (each of its threads waits for the slowest), and run beside the vector statements instead. An engine elsewhere
  // embeds while the words are read. bench/recallScale.ts measures both orders. A question embedded by the caller (a
  // compile's) is not waited for: the words statement then goes out at once, first, as the caller's other planes'
  // statements expect (the first carries the request's standing check, Graph.withStanding).
  if (request.question === undefined && deps.embedder?.sharesCores === true) await embedding;
  // The question's words, the episodes by words and the rare words.
  const wordSide = Promise.all([
    words
      ? phase('words', () =>
          deps.graph.readEach((tx) =>
            fullTextHits<CandidateRow>(tx, 'memories/search', {
              ...linked,
              lucene,
              limit: request.candidates,
              candidates: request.candidates,
              whole: false,
              around: false,
              per_node: 0,
            }),
          ),
        )
      : Promise.resolve([]),
    channels.has('episode') && base.episode === null
      ? phase('episodes', () => deps.graph.readEach((tx) => episodesByWords(tx, request.projectId, lucene, 20)))
      : Promise.resolve([]),
    words
      ? phase('rare', () => rareWords(deps, request, linked))
      : Promise.resolve<RareWords>({ held: new Map(), hits: new Map() }),
  ]);
  // Once the question has a vector: its neighbours by their own vector, by their context, and in time.
  const neighbours = async (question: Question) => {
    const vector = question.vector !== null;
    /** A vector statement's neighbours, timed as the phase `name`, when the question has a vector and `channel`. */
    const nearBy = (channel: RecallChannel, name: string, statement: string) =>
      vector && channels.has(channel)
        ? phase(name, () =>
            deps.graph.readEach((tx) => nearest<CandidateRow>(tx, statement, linked, question, request.candidates)),
          )
        : Promise.resolve([]);
    const [near, context, timed, walked] = await Promise.all([
      nearBy('meaning', 'vector', 'memories/vector'),
      nearBy('context', 'context', 'memories/context_vector'),
      spans.length > 0 ? phase('time', () => readTimed(deps, request, linked, spans, question)) : Promise.resolve([]),
      // Only a question asking for several things of a kind is walked (src/memories/termWalk.ts).
      vector && channels.has('hops') && !request.semanticOnly && asksForSeveral(query)
        ? phase('walk', () =>
            deps.graph.readEach((tx) =>
              walkFromMeaning<CandidateRow>(tx, termVectorsOf(deps.graph), linked, question, request.candidates),
            ),
          )
        : Promise.resolve([]),
    ]);
    return { question, near, context, timed, walked };
  };
  const [[wordRows, episodeWords, rare], found] = await Promise.all([wordSide, embedding.then(neighbours)]);
  return { ...found, terms, windows, spans, wordRows, episodeWords, rare, speakers: asked.speakers };
}

/** The channels' rankings of what recall read, fused in one total order, the precision rules applied. */
function rankReads(request: GraphRecallRequest, reads: RecallReads): GraphRecallResult {
  const { query, channels, base } = request;
  const { question, terms, windows, spans, rare, episodeWords } = reads;
  const vector = question.vector !== null;
  const served: RecallChannel[] = [];
  const rankings: Ranking<CandidateRow>[] = [];
  const stems = contentWords(query);
  /** Results a word hit of weight found: evidence beyond meaning. */
  const worded = new Set<string>();
  if (readsWords(request)) {
    served.push('words');
    const hits = present(reads.wordRows).map((r) => ({ ...hitOf(r, r.score ?? 0), weight: 0 }));
    for (const h of hits) {
      h.weight = wordWeight(stems, h.text);
      if (h.weight > 0) worded.add(h.id);
    }
    rankings.push({ source: 'lexical', plane: 'memory', hits });
  }
  // Meaning and context: each vector statement's neighbours, nearest first.
  const neighbourRankings = [
    ['meaning', 'semantic', reads.near],
    ['context', 'context', reads.context],
  ] as const;
  for (const [channel, source, rows] of neighbourRankings)
    if (vector && channels.has(channel)) {
      served.push(channel);
      rankings.push({ source, plane: 'memory', hits: present(rows).map((r) => hitOf(r, r.similarity ?? 0)) });
    }
  // The hops by meaning: the memories the walk from the question's nearest terms reached, best walk first.
  const walked = present(reads.walked);
  if (walked.length > 0)
    rankings.push({ source: 'graph', plane: 'memory', hits: walked.map((r) => hitOf(r, r.similarity ?? -2)) });
  const pool = candidatePool(rankings, [...present(reads.timed), ...[...rare.hits.values()].map((h) => h.item)]);
  const floor = similarityFloor(question.model);
  if (channels.has('episode') && base.episode === null && (episodeWords.length > 0 || vector)) {
    served.push('episode');
    rankings.push({ source: 'episode', plane: 'memory', hits: episodeRanking(pool, episodeWords, floor) });
  }
  if (windows.length > 0) {
    served.push('time');
    rankings.push({ source: 'time', plane: 'memory', hits: timeRanking(pool, spans) });
  }
  if (walked.length > 0 || (channels.has('hops') && terms.length > 0)) served.push('hops');
  if (channels.has('hops') && terms.length > 0) {
    // Within the hops, what every channel before them says orders the memories the walk reaches alike.
    reprior(pool, rankings);
    rankings.push({ source: 'graph', plane: 'memory', hits: hopRanking(pool, new Set(terms), HOP_FEEDBACK) });
  }
  // Rare words: their memories are candidates whatever else ranked them (a ranking that weighs nothing), and the
  // total order puts them first.
  if (rare.hits.size > 0)
    rankings.push({
      source: 'lexical',
      plane: 'memory',
      hits: [...rare.hits.values()].map((h) => ({ ...h, weight: 0 })),
    });
  const first = firstForRareWords(rare, query);
  const fused = fuseRankings(rankings, query, Number.MAX_SAFE_INTEGER, RRF_K, (id) => first.get(id) ?? []);
  // When the question names speakers, one pass over the candidates reads who said each line, for two rules. The
  // floor: a line a speaker the words no longer read said ("Caroline: ..." for "Where does Caroline dream of going?")
  // holds that word of the question, as its label did for the words, so the floor keeps it as it kept it then. And
  // lines other people said in conversations the question's speakers are not found in rank last (othersLast).
  const said = new Map<string, SaidLine>();
  if (reads.speakers.length > 0)
    for (const c of pool) {
      if (c.links?.terms?.some(([key, role]) => role === 'speaker' && reads.speakers.includes(key)))
        worded.add(c.hit.id);
      said.set(c.hit.id, {
        speaker: speakerOf(c.hit.item.memory?.content ?? ''),
        episode: c.links?.episode_id ?? null,
      });
    }
  const kept = withMeaningFloor(fused, question.model, worded);
  const ranked = othersLast(kept, said, reads.speakers, putFirst);
  return { fused: ranked.slice(0, request.limit), question, windows, served };
}

/**
 * The rare words that put a memory first: a word written as a name (capitalised inside a sentence, or joined by a
 * hyphen, in the question or in the memory: "Adeyemi-Kovalenko", "Zorblax"), or one no English dictionary holds (a
 * codename, a product, a term of art: "kubernetes", "flumox"). An ordinary word can be rare in a small project and
 * still say little of what the question asks ("pursue", "charity"): it ranks by its evidence like any other.
 */
function firstForRareWords(rare: RareWords, query: string): Map<string, string[]> {
  const first = new Map<string, string[]>();
  for (const [id, words] of rare.held) {
    // Its content as written: the memory's name is its first words without their closing punctuation, so a word
    // opening the content would read as one inside a sentence there.
    const text = rare.hits.get(id)?.item.memory?.content ?? '';
    const kept = words.filter((w) => !isEnglishWord(w) || writtenAsName(w, query) || writtenAsName(w, text));
    if (kept.length > 0) first.set(id, kept);
  }
  return first;
}

/** Whether the word stands in the text as a name: capitalised where a sentence does not start, or hyphen-joined. */
export function writtenAsName(word: string, text: string): boolean {
  const escaped = escapeRegExp(word);
  const found = new RegExp(`(^|[^\\p{L}\\p{N}])(${escaped})(?=$|[^\\p{L}\\p{N}])`, 'giu');
  for (const m of text.matchAll(found)) {
    const at = m.index + m[1]!.length;
    const written = m[2]!;
    const joined = text[at - 1] === '-' || text[at + written.length] === '-';
    const before = text.slice(0, at).trimEnd();
    const opensSentence = before === '' || /[.!?:]$/.test(before);
    if (joined || (/^\p{Lu}/u.test(written) && !opensSentence)) return true;
  }
  return false;
}

/** How much the best hits' rare terms weigh in the hops, against the question's own terms (docs/recall.md). */
export const HOP_FEEDBACK = 0.5;

type PresentRow = CandidateRow & { memory: NonNullable<CandidateRow['memory']> };

/** The best cosine of a row: its own vector's or its context's (-2 without either). */
function bestOf(row: CandidateRow): number {
  return Math.max(row.similarity ?? -2, row.context_similarity ?? -2);
}

/**
 * Every candidate of the words, meaning and context rankings and of the extra rows (time, rare words), once, with
 * its links, its prior score (RRF of words, meaning and context) and its best similarity.
 */
function candidatePool(rankings: Ranking<CandidateRow>[], extra: CandidateRow[]): ChannelCandidate<CandidateRow>[] {
  const pool = new Map<string, ChannelCandidate<CandidateRow>>();
  const entry = (row: PresentRow, hit: CandidateHit): ChannelCandidate<CandidateRow> => {
    let c = pool.get(row.memory.id);
    if (!c) {
      c = { hit, links: row.links ?? null, prior: 0, best: -2 };
      pool.set(row.memory.id, c);
    }
    c.links ??= row.links ?? null;
    return c;
  };
  for (const ranking of rankings)
    ranking.hits.forEach((hit, i) => {
      const c = entry(hit.item as PresentRow, hit);
      c.prior += (hit.weight ?? 1) / (RRF_K + i + 1);
      if (ranking.source !== 'lexical') c.best = Math.max(c.best, hit.score);
    });
  for (const row of present(extra)) {
    const c = entry(row, hitOf(row, bestOf(row)));
    c.best = Math.max(c.best, bestOf(row));
  }
  return [...pool.values()];
}

/** The question's rare words: the memories holding them (the words each holds, and its hit), and the unknown ones. */
interface RareWords {
  held: Map<string, string[]>;
  hits: Map<string, CandidateHit>;
}

/** Each candidate's prior score again, from every ranking so far. */
function reprior(pool: ChannelCandidate<CandidateRow>[], rankings: Ranking<CandidateRow>[]): void {
  const score = new Map<string, number>();
  for (const ranking of rankings)
    ranking.hits.forEach((hit, i) => score.set(hit.id, (score.get(hit.id) ?? 0) + (hit.weight ?? 1) / (RRF_K + i + 1)));
  for (const c of pool) c.prior = score.get(c.hit.id) ?? 0;
}

/** The memories holding each rare word of the question (memories/rare_words), and the words no memory holds. */
async function rareWords(
  deps: GraphDeps,
  request: GraphRecallRequest,
  linked: Record<string, unknown>,
): Promise<RareWords> {
  const held = new Map<string, string[]>();
  const hits = new Map<string, CandidateHit>();

  const words = [...new Set(request.query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])]
    .filter((w) => w.length > 3 && /^\p{L}+$/u.test(w) && contentWords(w).length > 0)
    .slice(0, 12);
  const queries = words
    .map((word) => ({ word, lucene: luceneQuery(word, request.projectId) }))
    .filter((q): q is { word: string; lucene: string } => q.lucene !== null);
  if (queries.length === 0) return { held, hits };
  const rows = await deps.graph.readEach((tx) =>
    tx.run<{ word: string; held: number; hits: CandidateRow[] }>('memories/rare_words', {
      ...linked,
      words: queries,
      rare: RARE_WORD,
    }),
  );
  for (const row of rows) {
    for (const r of present(row.hits)) {
      held.set(r.memory.id, [...(held.get(r.memory.id) ?? []), row.word]);
      hits.set(r.memory.id, hitOf(r, 0));
    }
  }
  return { held, hits };
}

/** The time channel's rows: memories observed in the spans (a window and the week after), nearest first. */
async function readTimed(
  deps: GraphDeps,
  request: GraphRecallRequest,
  linked: Record<string, unknown>,
  spans: Span[],
  question: Question,
): Promise<CandidateRow[]> {
  const row = await deps.graph.readEach((tx: Reader) =>
    tx.one<{ hits: CandidateRow[] }>('memories/observed', {
      ...linked,
      windows: spanParams(spans),
      vector: question.vector,
      model: question.model,
      scan: TIME_SCAN,
      limit: request.candidates,
    }),
  );
  return row?.hits ?? [];
}

/** A result an identifier or rare word of the question puts first, always: no floor or rule moves it. */
const putFirst = (r: HybridResult<CandidateRow>): boolean =>
  r.match.exact.length > 0 || (r.match.rare?.length ?? 0) > 0;

/**
 * The meaning floor: a result with no word of the question behind it (no word hit that weighs, no identifier, no
 * rare word) stays only when meaning finds the question about something the project holds (its nearest memory at
 * least MEANING_MATCH) and the result is within MEANING_SPREAD of that nearest one. So a question nothing matches
 * answers nothing, and a weak neighbour does not fill the list behind a strong answer.
 */
function withMeaningFloor(
  fused: HybridResult<CandidateRow>[],
  model: string | null,
  worded: ReadonlySet<string>,
): HybridResult<CandidateRow>[] {
  const bestOfResult = (r: HybridResult<CandidateRow>) =>
    Math.max(r.match.similarity ?? -2, r.match.context_similarity ?? -2);
  const top = Math.max(-2, ...fused.map(bestOfResult));
  const matched = top >= meaningMatch(model);
  const supported = (r: HybridResult<CandidateRow>) => putFirst(r) || worded.has(r.id);
  return fused.filter((r) => supported(r) || (matched && bestOfResult(r) >= top - MEANING_SPREAD));
}
