// One canonical form for entity names, so the same thing written "The  Analytical Engine." and
// "analytical engine" gets one key and one node.

const EDGE_START = /^[\s\p{P}]+/u;
const EDGE_END = /[\s\p{P}]+$/u;
const LEADING_THE = /^the\s+/u;

/** Strips trailing punctuation but keeps a '#' glued to the name, so "C#" stays "c#". */
function stripEnd(s: string): string {
  const match = EDGE_END.exec(s);
  if (!match) return s;
  const hash = match[0].indexOf('#');
  const cut = hash === 0 && match.index > 0 ? match.index + 1 : match.index;
  return s.slice(0, cut);
}

/** NFKC, lowercase, collapsed whitespace, no surrounding punctuation, no leading "the ". */
export function normalizeName(s: string): string {
  let out = s.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
  for (;;) {
    const next = stripEnd(out.replace(EDGE_START, '')).replace(LEADING_THE, '');
    if (next === out) return out;
    out = next;
  }
}

/** The identity of an extracted entity within one result: its shape label and normalized name. */
export function entityKey(type: string, name: string): string {
  return `${type}:${normalizeName(name)}`;
}
