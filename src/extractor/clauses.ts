// Reads relationships clause by clause around each relation phrase: the subject is the nearest
// mention of the needed type before the phrase in its clause (a pronoun stands for the latest
// fitting name), the object the first one after it; a passive ("was designed by") swaps the
// sides, a "reverse" verb ("hired") swaps the roles, coordination ("X and Y", "A, B and C")
// multiplies them, a relative clause ("the Vanta EV, which Lio Marchetti designed") puts the
// object before, and a negation between subject and phrase ("has never worked for") drops it.
import type { RelationshipTypeDef } from '../shapes/types.js';
import type { PlacedMention } from './entityMerge.js';
import { GROUP_PRONOUNS, NEGATORS, ORG_PRONOUNS, PERSON_PRONOUNS } from './lexicon.js';
import type { Token } from './tokenize.js';
import type { TriggerHit } from './triggers.js';

export interface Reading {
  rel: RelationshipTypeDef;
  from: PlacedMention;
  to: PlacedMention;
  /** Token index the relation was read at, for evidence and order. */
  at: number;
  confidence: number;
}

export interface ClauseContext {
  text: string;
  tokens: Token[];
  /** Every placed mention, sorted by position (they never overlap), and indexes over them. */
  mentions: PlacedMention[];
  byFirst: Map<number, PlacedMention>;
  byLast: Map<number, PlacedMention>;
  position: Map<PlacedMention, number>;
  /** Clause number of each token: a new clause after ";" and at ", but". */
  clause: number[];
  /** Shape label a pronoun may stand for: Person for he/she/they, Organization for it. */
  personLabel: string | undefined;
  orgLabel: string | undefined;
}

const RELATIVES = new Set(['which', 'that', 'whom']);

export function indexMentions(
  mentions: PlacedMention[],
): Pick<ClauseContext, 'mentions' | 'byFirst' | 'byLast' | 'position'> {
  return {
    mentions,
    byFirst: new Map(mentions.map((m) => [m.first, m])),
    byLast: new Map(mentions.map((m) => [m.last, m])),
    position: new Map(mentions.map((m, i) => [m, i])),
  };
}

/** The latest mention of `label` ending before token `index` (and, if given, not before token `floor`). */
export function latestBefore(ctx: ClauseContext, index: number, label: string, floor = 0): PlacedMention | undefined {
  let lo = 0;
  let hi = ctx.mentions.length - 1;
  let at = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((ctx.mentions[mid] as PlacedMention).last < index) {
      at = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  for (let k = at; k >= 0; k--) {
    const m = ctx.mentions[k] as PlacedMention;
    if (m.first < floor) return undefined;
    if (m.entity.type === label) return m;
  }
  return undefined;
}
const MAX_OBJECT_GAP = 5;

export function clauseNumbers(text: string, tokens: Token[]): number[] {
  let clause = 0;
  return tokens.map((t, i) => {
    const prev = tokens[i - 1];
    if (
      prev &&
      (prev.sentence !== t.sentence ||
        text.slice(prev.end, t.start).includes(';') ||
        (t.key === 'but' && text.slice(prev.end, t.start).includes(',')))
    )
      clause++;
    return clause;
  });
}

export const negated = (tokens: Token[], from: number, to: number): boolean =>
  tokens
    .slice(Math.max(0, from), to + 1)
    .some((t) => NEGATORS.has(t.key) || t.key.endsWith("n't") || t.tags.has('Negative'));

/** The mentions chained to `m` by commas, "and", "or" or "&" on one side, `m` included. */
export function coordinated(ctx: ClauseContext, m: PlacedMention, direction: -1 | 1): PlacedMention[] {
  const chain = [m];
  let edge = m;
  const at = ctx.position.get(m);
  if (at === undefined) return chain;
  for (let k = at + direction; k >= 0 && k < ctx.mentions.length; k += direction) {
    const o = ctx.mentions[k] as PlacedMention;
    if (o.entity.type !== m.entity.type || ctx.tokens[o.first]?.sentence !== ctx.tokens[m.first]?.sentence) break;
    const [lo, hi] = direction === -1 ? [o, edge] : [edge, o];
    const between = ctx.tokens.slice(lo.last + 1, hi.first).filter((t) => t.key !== '' && t.key !== 'the');
    const gap = ctx.text.slice(lo.end, (ctx.tokens[lo.last + 1] as Token | undefined)?.start ?? hi.start);
    const linked =
      between.length === 0
        ? /^\s*,\s*$/u.test(ctx.text.slice(lo.end, hi.start))
        : between.length === 1 && ['and', 'or', '&'].includes((between[0] as Token).key) && !/[;:]/u.test(gap);
    if (!linked) break;
    chain.push(o);
    edge = o;
  }
  return chain;
}

/** "she", "it", "they": the latest fitting mention before `index` (for "they", its coordination). */
function pronounFor(ctx: ClauseContext, index: number, label: string): PlacedMention[] {
  const key = ctx.tokens[index]?.key ?? '';
  const fits =
    (PERSON_PRONOUNS.has(key) && label === ctx.personLabel) ||
    (ORG_PRONOUNS.has(key) && label !== ctx.personLabel) ||
    (GROUP_PRONOUNS.has(key) && label === ctx.personLabel);
  if (!fits) return [];
  const latest = latestBefore(ctx, index, label);
  if (!latest) return [];
  if (!GROUP_PRONOUNS.has(key)) return [{ ...latest, first: index, last: index }];
  const chain = coordinated(ctx, latest, -1);
  return chain.length > 1 ? chain.map((m) => ({ ...m, first: index, last: index })) : [];
}

/** Nearest mention (or pronoun) of `label` before token `before`, in the same clause. */
function subjectBefore(ctx: ClauseContext, before: number, label: string): PlacedMention[] {
  const clause = ctx.clause[before];
  for (let i = before - 1; i >= 0 && ctx.clause[i] === clause; i--) {
    const m = ctx.byLast.get(i);
    if (m && m.entity.type === label) return coordinated(ctx, m, -1);
    if (m && m.first < i) i = m.first;
    const pronoun = pronounFor(ctx, i, label);
    if (pronoun.length) return pronoun;
    // "the MIT Instrumentation Laboratory, which built": the subject is what "which" refers to.
    if (!m && SUBJECT_RELATIVES.has(ctx.tokens[i]?.key ?? '')) {
      const antecedent = antecedentOf(ctx, i);
      return antecedent && antecedent.entity.type === label ? coordinated(ctx, antecedent, -1) : [];
    }
  }
  return [];
}

const SUBJECT_RELATIVES = new Set(['which', 'who', 'that']);
const DETERMINERS = new Set(['a', 'an', 'the']);

/** The mention a relative pronoun at `index` refers to, past an apposition (", a method that"). */
function antecedentOf(ctx: ClauseContext, index: number): PlacedMention | undefined {
  const direct = ctx.byLast.get(index - 1);
  if (direct) return direct;
  const noun = ctx.tokens[index - 1];
  if (noun && !noun.capitalised && DETERMINERS.has(ctx.tokens[index - 2]?.key ?? '')) return ctx.byLast.get(index - 3);
  return undefined;
}

/** Between a verb and its object only articles, possessives, adjectives and numbers stand. */
const OBJECT_FILLER = new Set([
  'the',
  'a',
  'an',
  'its',
  'his',
  'her',
  'their',
  'our',
  'both',
  'also',
  'two',
  'three',
  'several',
  'new',
  'first',
]);
const fillsObject = (t: Token): boolean =>
  OBJECT_FILLER.has(t.key) || t.key === '' || (t.tags.has('Adjective') && !t.tags.has('Verb'));

/** First mention of `label` after token `after`, within MAX_OBJECT_GAP tokens and the clause. */
function objectAfter(ctx: ClauseContext, after: number, label: string, many: boolean): PlacedMention[] {
  const clause = ctx.clause[after];
  let m: PlacedMention | undefined;
  for (let i = after + 1; i <= after + 1 + MAX_OBJECT_GAP && !m; i++) {
    const x = ctx.byFirst.get(i);
    if (x && ctx.clause[x.first] === clause && x.entity.type === label) m = x;
  }
  if (!m) {
    // "Mina Stroud designed it": the latest fitting name before.
    const pronoun = ctx.tokens[after + 1]?.key === 'it' ? pronounFor(ctx, after + 1, label) : [];
    return pronoun;
  }
  if (!ctx.tokens.slice(after + 1, m.first).every(fillsObject)) return [];
  return many ? coordinated(ctx, m, 1) : [m];
}

const manyTargets = (rel: RelationshipTypeDef): boolean =>
  rel.cardinality === 'many_to_many' || rel.cardinality === 'one_to_many';

export function readClauses(ctx: ClauseContext, hits: TriggerHit[]): Reading[] {
  const out: Reading[] = [];
  for (const hit of hits) {
    const { rel, reverse, weight } = hit.trigger;
    const leftIsFrom = reverse === hit.passive;
    const [leftLabel, rightLabel] = leftIsFrom ? [rel.from, rel.to] : [rel.to, rel.from];
    let lefts = subjectBefore(ctx, hit.first, leftLabel);
    const rightStart = hit.passive ? hit.last + 1 : hit.last;
    let rights = objectAfter(ctx, rightStart, rightLabel, leftIsFrom ? manyTargets(rel) : true);
    // "the Vanta EV, which Lio Marchetti designed": the object stands before the relative pronoun.
    const relative = lefts.length ? Math.min(...lefts.map((l) => l.first)) - 1 : -1;
    if (!rights.length && RELATIVES.has(ctx.tokens[relative]?.key ?? '')) {
      const antecedent = ctx.byLast.get(relative - 1);
      if (antecedent && antecedent.entity.type === rightLabel) rights = [antecedent];
    }
    if (!rights.length) continue;
    if (lefts.length && negated(ctx.tokens, Math.max(...lefts.map((l) => l.last)) + 1, hit.last)) {
      // "Orla Brisk did not attend the Summit, but Hamid Castell did": the elided verb holds for the second subject.
      lefts = elidedSubject(ctx, Math.max(...rights.map((r) => r.last)), leftLabel);
    }
    if (!lefts.length) continue;
    for (const l of lefts) {
      for (const r of rights) {
        const [from, to] = leftIsFrom ? [l, r] : [r, l];
        if (from.entity.key === to.entity.key) continue;
        out.push({ rel, from, to, at: hit.first, confidence: 0.9 * weight });
      }
    }
  }
  return out;
}

const ELIDED_VERBS = new Set([
  'did',
  'does',
  'do',
  'has',
  'have',
  'had',
  'was',
  'were',
  'is',
  'are',
  'will',
  'would',
  'could',
]);

/** ", but Hamid Castell did." after the object of a negated clause: the second subject. */
function elidedSubject(ctx: ClauseContext, after: number, label: string): PlacedMention[] {
  let but = -1;
  for (
    let i = after + 1;
    i < ctx.tokens.length && ctx.tokens[i]?.sentence === ctx.tokens[after]?.sentence && but < 0;
    i++
  )
    if (ctx.tokens[i]?.key === 'but') but = i;
  const subject = but < 0 ? undefined : ctx.byFirst.get(but + 1);
  if (!subject || subject.entity.type !== label) return [];
  const verb = ctx.tokens[subject.last + 1];
  const closing = ctx.tokens[subject.last + 2];
  const ends = !closing || closing.sentence !== verb?.sentence || ['too', 'so', 'also'].includes(closing.key);
  return verb && ELIDED_VERBS.has(verb.key) && ends && !negated(ctx.tokens, subject.last + 1, subject.last + 2)
    ? [subject]
    : [];
}
