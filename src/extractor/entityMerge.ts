// Gathers placed mentions into entities and merges the ones that are the same thing: equal keys,
// a first name that belongs to exactly one full name, and (agentic_plus) later surname-only or
// lower-case mentions of a name already seen.
import { entityKey, normalizeName } from './normalize.js';
import type { Token } from './tokenize.js';
import type { Candidate } from './candidates.js';

export interface PlacedMention {
  first: number;
  last: number;
  start: number;
  end: number;
  text: string;
  confidence: number;
  entity: Draft;
}

export interface Draft {
  key: string;
  type: string;
  /** As first written by the mention that created it (never an alias or a re-found copy). */
  name: string;
  normalized: string;
  /** Token keys of the first mention, for finding the name again. */
  tokenKeys: string[];
  mentions: PlacedMention[];
  /** Created by an agentic_plus step; held to the stricter threshold. */
  extra: boolean;
}

const DEFINITE = new Set(['the', 'this', 'that']);
const round3 = (n: number): number => Math.round(n * 1000) / 1000;

/** Best mention, plus 0.05 for every further mention, at most 0.99. */
export function draftConfidence(draft: Draft): number {
  const best = draft.mentions.reduce((max, m) => Math.max(max, m.confidence), 0);
  return round3(Math.min(0.99, best + 0.05 * (draft.mentions.length - 1)));
}

export class EntityGraph {
  readonly drafts = new Map<string, Draft>();

  constructor(
    private readonly text: string,
    private readonly tokens: Token[],
    private readonly taken: Uint8Array,
  ) {}

  addCandidate(c: Candidate, extra: boolean): void {
    const start = (this.tokens[c.first] as Token).start;
    const end = c.end ?? (this.tokens[c.last] as Token).end;
    const text = this.text.slice(start, end);
    const normalized = normalizeName(text);
    if (normalized === '') return;
    const key = entityKey(c.type, text);
    let draft = this.drafts.get(key);
    if (!draft) {
      const tokenKeys = this.tokens.slice(c.first, c.last + 1).map((t) => t.key);
      draft = { key, type: c.type, name: text, normalized, tokenKeys, mentions: [], extra };
      this.drafts.set(key, draft);
    }
    draft.mentions.push({ first: c.first, last: c.last, start, end, text, confidence: c.confidence, entity: draft });
    this.taken.fill(1, c.first, c.last + 1);
  }

  private moveMentions(from: Draft, to: Draft): void {
    for (const m of from.mentions) to.mentions.push({ ...m, entity: to });
    this.drafts.delete(from.key);
  }

  private fullNames(type: string): Draft[] {
    return [...this.drafts.values()].filter((d) => d.type === type && d.normalized.includes(' '));
  }

  /** "Ada" → "Ada Lovelace" when exactly one longer person name has that word. */
  mergeShortNames(personType: string): void {
    const full = this.fullNames(personType);
    for (const key of [...this.drafts.keys()].sort()) {
      const draft = this.drafts.get(key) as Draft;
      if (draft.type !== personType || draft.normalized.includes(' ')) continue;
      const owners = full.filter((f) => f.normalized.split(' ').includes(draft.normalized));
      if (owners.length === 1) this.moveMentions(draft, owners[0] as Draft);
    }
  }

  /** agentic_plus: a lone "Lovelace" after "Ada Lovelace" is her, if no other full name ends so. */
  addSurnameMentions(personType: string): void {
    const bySurname = new Map<string, { draft: Draft; since: number }[]>();
    for (const draft of this.fullNames(personType)) {
      const surname = draft.tokenKeys[draft.tokenKeys.length - 1] as string;
      const since = draft.mentions.reduce((min, m) => Math.min(min, m.start), Infinity);
      bySurname.set(surname, [...(bySurname.get(surname) ?? []), { draft, since }]);
    }
    this.tokens.forEach((token, i) => {
      if (this.taken[i] || !token.capitalised) return;
      const prev = this.tokens[i - 1];
      const next = this.tokens[i + 1];
      if ((prev && !prev.breakAfter && prev.capitalised) || (next && !token.breakAfter && next.capitalised)) return;
      const owners = (bySurname.get(token.key) ?? []).filter((o) => o.since < token.start);
      const owner = owners[0]?.draft;
      if (owners.length !== 1 || !owner) return;
      owner.mentions.push({
        first: i,
        last: i,
        start: token.start,
        end: token.end,
        text: token.text,
        confidence: 0.6,
        entity: owner,
      });
      this.taken[i] = 1;
    });
  }

  /** agentic_plus: finds multi-word names again wherever they appear, whatever their case. */
  addRepeatMentions(): void {
    const byHead = new Map<string, Draft[]>();
    for (const d of this.drafts.values()) {
      if (d.tokenKeys.length > 1)
        byHead.set(d.tokenKeys[0] as string, [...(byHead.get(d.tokenKeys[0] as string) ?? []), d]);
    }
    this.tokens.forEach((token, i) => {
      for (const d of byHead.get(token.key) ?? []) {
        const last = i + d.tokenKeys.length - 1;
        const same = d.tokenKeys.every(
          (k, n) =>
            !this.taken[i + n] && this.tokens[i + n]?.key === k && this.tokens[i + n]?.sentence === token.sentence,
        );
        if (!same) continue;
        const end = (this.tokens[last] as Token).end;
        d.mentions.push({
          first: i,
          last,
          start: token.start,
          end,
          text: this.text.slice(token.start, end),
          confidence: 0.6,
          entity: d,
        });
        this.taken.fill(1, i, last + 1);
        return;
      }
    });
  }

  /**
   * agentic_plus: "The company is headquartered in London" after "Analytical Engines Ltd" means
   * that organisation: "the/this/that" + a cue word of a type refers to the latest entity of that
   * type mentioned in this or the previous sentence.
   */
  addDefiniteMentions(cues: ReadonlyMap<string, string>): void {
    const placed = this.mentions();
    const latestOfType = new Map<string, PlacedMention>();
    let next = 0;
    this.tokens.forEach((token, i) => {
      // Walk the (sorted) mentions alongside the tokens, remembering the latest of each type.
      for (let m = placed[next]; m && m.start < token.start; m = placed[++next]) latestOfType.set(m.entity.type, m);
      const noun = this.tokens[i + 1];
      const after = this.tokens[i + 2];
      if (
        !DEFINITE.has(token.key) ||
        !noun ||
        noun.capitalised ||
        token.breakAfter ||
        this.taken[i] ||
        this.taken[i + 1]
      )
        return;
      const type = cues.get(noun.key);
      if (!type || noun.sentence !== token.sentence || (after && !noun.breakAfter && after.capitalised)) return;
      const latest = latestOfType.get(type);
      if (!latest || (this.tokens[latest.first] as Token).sentence < token.sentence - 1) return;
      latest.entity.mentions.push({
        first: i,
        last: i + 1,
        start: token.start,
        end: noun.end,
        text: this.text.slice(token.start, noun.end),
        confidence: 0.6,
        entity: latest.entity,
      });
      this.taken.fill(1, i, i + 2);
    });
  }

  /** Drops agentic_plus entities below the threshold, with their mentions. */
  dropWeakExtras(threshold: number): void {
    for (const [key, d] of [...this.drafts]) if (d.extra && draftConfidence(d) < threshold) this.drafts.delete(key);
  }

  mentions(): PlacedMention[] {
    return [...this.drafts.values()].flatMap((d) => d.mentions).sort((a, b) => a.first - b.first);
  }
}
