// The terms a memory mentions, for recall's hops (docs/recall.md, "Hops"): who said it, who or what it is about,
// and the names, things and activities in its text. Deterministic and offline like the built-in extractor
// (compromise's tags through tokenize.ts); made by the mention worker after the write, never on the request path.
// A term's key is what two mentions of one thing share: a name lower-cased, a noun or an activity by its Porter
// stem ("kids" and "kid", "camping" and "camp"), so a question finds the memories that name what it names.
import { stemmer } from 'stemmer';
import { tokenize, type Token } from './tokenize.js';
import { normalizeName } from './normalize.js';

export type TermRole = 'speaker' | 'subject' | 'object' | 'mention';
export type TermKind = 'person' | 'name' | 'thing' | 'activity';

export interface RecallTerm {
  key: string;
  /** How it was first written (lower-cased for nouns and activities). */
  name: string;
  kind: TermKind;
  role: TermRole;
}

/** A transcript line's speaker: a name of one to three capitalised words, then a colon ("Ana Lima: ..."). */
const SPEAKER = /^\s*(\p{Lu}[\p{L}'’.-]*(?:\s\p{Lu}[\p{L}'’.-]*){0,2}):\s+/u;

/** A transcript line's speaker label: the name as written and how long the label is ("Ana Lima: " is 10). */
function speakerLabel(text: string): { name: string; length: number } | null {
  const m = SPEAKER.exec(text);
  return m && !NOT_NAMES.has(m[1]!.toLowerCase()) ? { name: m[1]!, length: m[0].length } : null;
}

/** Who says a transcript line ("Ana Lima: ..."): the speaker's term key, as recallTerms reads it; null for no line. */
export function speakerOf(text: string): string | null {
  const speaker = speakerLabel(text);
  return speaker ? normalizeName(speaker.name) : null;
}

/**
 * Months and weekdays: written capitalised, they say when, not who or what. The time channel reads them (a hop from
 * "December" would join every memory said to be of any December), so they are no term.
 */
const CALENDAR = new Set([
  ...'january february march april may june july august september october november december'.split(' '),
  ...'monday tuesday wednesday thursday friday saturday sunday'.split(' '),
]);

/** Capitalised words that open or punctuate speech and name nothing. */
const NOT_NAMES = new Set([
  'hey',
  'hi',
  'hello',
  'thanks',
  'thank',
  'wow',
  'yeah',
  'yes',
  'no',
  'ok',
  'okay',
  'oh',
  'ah',
  'sure',
  'cool',
  'great',
  'awesome',
  'nice',
  'sorry',
  'congrats',
  'congratulations',
  'absolutely',
  'definitely',
  'totally',
  'haha',
  'lol',
  'omg',
  'bye',
  'well',
  'so',
  'and',
  'but',
  'or',
  'i',
  "i'm",
  "i've",
  "i'd",
  "i'll",
  'yep',
  'nope',
  'woah',
  'whoa',
  'aw',
  'aww',
  'hmm',
  'dear',
  'please',
  'good',
  'glad',
  'love',
  'btw',
]);

/** Nouns too general to tell memories apart. */
const LIGHT_NOUNS = new Set([
  // possessive determiners the tagger may read as nouns ("near our house")
  'my',
  'our',
  'your',
  'their',
  'his',
  'her',
  'its',
  'thing',
  'things',
  'stuff',
  'lot',
  'lots',
  'time',
  'times',
  'way',
  'ways',
  'bit',
  'kind',
  'sort',
  'day',
  'days',
  'week',
  'weeks',
  'month',
  'months',
  'year',
  'years',
  'moment',
  'moments',
  'one',
  'ones',
  'people',
  'person',
  'guy',
  'guys',
  'something',
  'anything',
  'everything',
  'nothing',
  'someone',
  'anyone',
  'everyone',
  'idea',
  'part',
  'pic',
  'picture',
  'photo',
  'today',
  'yesterday',
  'tomorrow',
  'tonight',
  'morning',
  'evening',
  'night',
  'fun',
  'sense',
  'place',
  'point',
  'feeling',
  'feelings',
  'experience',
  'life',
  'world',
  'end',
  'start',
  'side',
]);

/** Verbs in -ing that say nothing of an activity ("being", "going", "thinking"). */
const LIGHT_GERUNDS = new Set([
  'being',
  'having',
  'doing',
  'going',
  'getting',
  'making',
  'saying',
  'thinking',
  'looking',
  'feeling',
  'trying',
  'taking',
  'coming',
  'seeing',
  'knowing',
  'wanting',
  'keeping',
  'letting',
  'putting',
  'telling',
  'finding',
  'giving',
  'using',
  'talking',
  'hearing',
  'loving',
  'hoping',
  'sharing',
  'needing',
  'meaning',
  'starting',
  'planning',
  'wondering',
  'learning',
  'helping',
  'enjoying',
  'glad',
  'amazing',
  'exciting',
  'interesting',
]);

const stems = new Map<string, string>();
function stemOf(word: string): string {
  let s = stems.get(word);
  if (s === undefined) {
    if (stems.size > 50_000) stems.clear();
    s = stemmer(word);
    stems.set(word, s);
  }
  return s;
}

const isNoun = (t: Token): boolean =>
  t.tags.has('Noun') && !t.tags.has('Pronoun') && !t.capitalised && /^\p{L}[\p{L}'’-]*$/u.test(t.key);

/**
 * The terms of a text, each once (its first role wins), in the order met; `ends` adds the memory's subject and
 * object.
 */
export function recallTerms(
  text: string,
  ends: { subject?: string | null; object?: string | null } = {},
): RecallTerm[] {
  const out = new Map<string, RecallTerm>();
  const add = (key: string, name: string, kind: TermKind, role: TermRole): void => {
    if (key && !out.has(key)) out.set(key, { key, name, kind, role });
  };
  for (const role of ['subject', 'object'] as const) {
    const name = ends[role];
    if (name) add(normalizeName(name), name.trim(), 'name', role);
  }
  let body = text;
  const speaker = speakerLabel(text);
  if (speaker) {
    add(normalizeName(speaker.name), speaker.name, 'person', 'speaker');
    body = text.slice(speaker.length);
  }
  const { tokens } = tokenize(body);
  for (let i = 0; i < tokens.length; i += 1) {
    const t = tokens[i]!;
    if (!/\p{L}/u.test(t.key)) continue;
    const opensSentence = i === 0 || tokens[i - 1]!.sentence !== t.sentence;
    const named = t.tags.has('Person') || t.tags.has('Place') || t.tags.has('ProperNoun');
    const nameless = NOT_NAMES.has(t.key) || CALENDAR.has(t.key);
    if (t.capitalised && !t.tags.has('Pronoun') && !nameless && (!opensSentence || named)) {
      // A name kept whole: capitalised words in a row ("Charlotte's Web" stops at the possessive).
      let j = i;
      while (j + 1 < tokens.length && !tokens[j]!.breakAfter && tokens[j + 1]!.capitalised) j += 1;
      const words = tokens.slice(i, j + 1);
      // A possessive the tagger left on the name's last word ("over to Nate's and") is not part of the name.
      const name = body.slice(words[0]!.start, words.at(-1)!.end).replace(/['’]s$/u, '');
      add(normalizeName(name), name, t.tags.has('Person') ? 'person' : 'name', 'mention');
      i = j;
      continue;
    }
    if (isNoun(t) && t.key.length > 2 && !LIGHT_NOUNS.has(t.key)) {
      const stem = stemOf(t.key);
      add(stem, t.key, 'thing', 'mention');
      const next = tokens[i + 1];
      // A compound keeps its head too ("pottery class": pottery, class, pottery class).
      if (next && !t.breakAfter && isNoun(next) && next.key.length > 2 && !LIGHT_NOUNS.has(next.key))
        add(`${stem} ${stemOf(next.key)}`, `${t.key} ${next.key}`, 'thing', 'mention');
      continue;
    }
    if (t.tags.has('Gerund') && !LIGHT_GERUNDS.has(t.key) && t.key.length > 4)
      add(stemOf(t.key), t.key, 'activity', 'mention');
  }
  return [...out.values()];
}
