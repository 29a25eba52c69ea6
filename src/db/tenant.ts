// The project's token in full-text indexes: Lucene queries require it, so ranked recall reads only
// the project's own postings. The "p…z" form survives the English analyzer's stemming unchanged.
export function tenantToken(projectId: string): string {
  return `p${projectId.replace(/[^A-Za-z0-9]/g, '').toLowerCase()}z`;
}

const SPECIAL = /[+\-&|!(){}[\]^"~*?:\\/]/g;

/** Escapes user text into Lucene terms (any term may match), required to carry the tenant token. */
export function luceneQuery(text: string, projectId: string, maxTerms = 32): string | null {
  const terms = text
    .split(/\s+/)
    .filter((t) => /[\p{L}\p{N}]/u.test(t))
    .slice(0, maxTerms)
    .map((t) => t.replace(SPECIAL, (c) => `\\${c}`))
    // Uppercase AND/OR/NOT are operators in Lucene syntax; lowercase words are plain terms.
    .map((t) => (/^(AND|OR|NOT|TO)$/.test(t) ? t.toLowerCase() : t));
  if (terms.length === 0) return null;
  return `+tenant:${tenantToken(projectId)} +(${terms.join(' ')})`;
}
