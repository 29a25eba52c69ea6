// Relations stated without a relation verb, read only for the general shape's types by name:
// a role ("Tim Cook, the chief executive of Apple Inc.", "is a professor at"), a place right
// after an organization ("the Swiss Patent Office in Bern"), and an event a person's clause
// happens at ("Angela Merkel met Emmanuel Macron at the Munich Security Conference"). Each is
// weaker than a relation phrase and, like one, never read from a negated clause.
import type { ShapeDef } from '../shapes/types.js';
import { type ClauseContext, latestBefore, negated, type Reading } from './clauses.js';
import type { PlacedMention } from './entityMerge.js';
import { CREATIVE_WORKS, PERSON_PRONOUNS, ROLE_NOUNS } from './lexicon.js';

const ROLE_LINKS = new Set(['at', 'of', 'for', 'with']);

export function impliedReadings(ctx: ClauseContext, shape: ShapeDef): Reading[] {
  const out: Reading[] = [];
  const rel = (type: string) => shape.relationship_types.find((r) => r.type === type);
  const { tokens, mentions } = ctx;
  const startingAt = (i: number) =>
    ctx.byFirst.get(i) ?? (tokens[i]?.key === 'the' ? ctx.byFirst.get(i + 1) : undefined);
  const clauseStart = (i: number) => {
    let k = i;
    while (k > 0 && ctx.clause[k - 1] === ctx.clause[i]) k--;
    return k;
  };

  const worksFor = rel('WORKS_FOR');
  if (worksFor) {
    tokens.forEach((t, i) => {
      if (
        !ROLE_NOUNS.has(t.key) ||
        (t.capitalised && !/^\p{Lu}+$/u.test(t.text)) ||
        !ROLE_LINKS.has(tokens[i + 1]?.key ?? '') ||
        t.breakAfter
      )
        return;
      const org = startingAt(i + 2);
      if (!org || org.entity.type !== worksFor.to) return;
      const person = latestBefore(ctx, i, worksFor.from, clauseStart(i));
      if (!person || negated(tokens, person.last + 1, i)) return;
      out.push({ rel: worksFor, from: person, to: org, at: i, confidence: 0.8 });
    });
  }

  const locatedIn = rel('LOCATED_IN');
  if (locatedIn) {
    for (const org of mentions) {
      if (
        org.entity.type !== locatedIn.from ||
        tokens[org.last + 1]?.key !== 'in' ||
        (tokens[org.last] as { breakAfter: boolean }).breakAfter
      )
        continue;
      const place = ctx.byFirst.get(org.last + 2);
      if (place && place.entity.type === locatedIn.to)
        out.push({ rel: locatedIn, from: org, to: place, at: org.last + 1, confidence: 0.7 });
    }
  }

  const participated = rel('PARTICIPATED_IN');
  if (participated) {
    const byClause = new Map<number, PlacedMention[]>();
    for (const m of mentions)
      byClause.set(ctx.clause[m.first] ?? -1, [...(byClause.get(ctx.clause[m.first] ?? -1) ?? []), m]);
    for (const event of mentions) {
      if (event.entity.type !== participated.to) continue;
      const prep = event.first - (tokens[event.first - 1]?.key === 'the' ? 2 : 1);
      if (!['at', 'in'].includes(tokens[prep]?.key ?? '')) continue;
      const inClause = [...(byClause.get(ctx.clause[event.first] ?? -1) ?? [])];
      // "Last spring she presented the Tern Arm at the Expo": a person pronoun opening the clause.
      let pronoun = -1;
      for (let i = clauseStart(event.first); i < event.first && pronoun < 0; i++)
        if (PERSON_PRONOUNS.has(tokens[i]?.key ?? '')) pronoun = i;
      const speaker =
        pronoun >= 0 && !inClause.some((m) => m.first < pronoun)
          ? latestBefore(ctx, pronoun, participated.from)
          : undefined;
      if (speaker) inClause.unshift({ ...speaker, first: pronoun, last: pronoun });
      const sentenceFirst = prep === 0 || tokens[prep - 1]?.sentence !== tokens[prep]?.sentence;
      // "At the Ossery Film Festival, director Lenna Voss presented": the first person after it.
      const person = sentenceFirst
        ? inClause.find((m) => m.first > event.last && m.entity.type === participated.from)
        : inClause[0]?.entity.type === participated.from && inClause[0].last < event.first
          ? inClause[0]
          : undefined;
      if (!person) continue;
      const [lo, hi] = person.last < event.first ? [person.last + 1, event.first] : [event.last + 1, person.first];
      if (negated(tokens, lo, hi)) continue;
      out.push({
        rel: participated,
        from: person,
        to: event,
        at: Math.min(person.first, event.first),
        confidence: 0.7,
      });
    }
  }
  const created = rel('CREATED');
  if (created) {
    // "presented her film Saltmarsh": the person the possessive stands for made it.
    tokens.forEach((t, i) => {
      if (!['her', 'his'].includes(t.key) || !CREATIVE_WORKS.has(tokens[i + 1]?.key ?? '')) return;
      const work = ctx.byFirst.get(i + 2);
      let sentenceStart = i;
      while (sentenceStart > 0 && tokens[sentenceStart - 1]?.sentence === t.sentence) sentenceStart--;
      const maker = latestBefore(ctx, i, created.from, sentenceStart);
      if (work && work.entity.type === created.to && maker && !negated(tokens, maker.last + 1, i))
        out.push({ rel: created, from: { ...maker, first: i, last: i }, to: work, at: i, confidence: 0.7 });
    });
  }
  return out;
}
