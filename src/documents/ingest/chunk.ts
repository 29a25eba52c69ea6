// Splits extracted text into overlapping chunks small enough to embed and cite, cutting where a
// reader would (paragraph, then sentence, then word) so no chunk starts or ends mid-thought when
// it can be helped. The same text always gives the same chunks, so re-indexing is stable.

export interface Chunk {
  index: number;
  /** Always text.slice(start, end) of the input, trimmed of surrounding whitespace. */
  text: string;
  start: number;
  end: number;
}

export interface ChunkOptions {
  /** Most characters in one chunk; 1200 by default. */
  size?: number;
  /** Characters repeated from the end of one chunk at the start of the next; 200 by default. */
  overlap?: number;
}

/** A sentence end: terminal punctuation, closing quotes or brackets, then whitespace. */
const SENTENCE_END = /[.!?\u3002\uff01\uff1f]["'\u201d\u2019)\]]*\s+/g;

/** Cut points by preference; each match's end is where a chunk may end. */
const BOUNDARIES: readonly RegExp[] = [
  /\n[^\S\n]*\n\s*/g, // a blank line: paragraph
  SENTENCE_END,
  /\s+/g, // word
];

export function chunkText(text: string, opts: ChunkOptions = {}): Chunk[] {
  const size = opts.size ?? 1200;
  const overlap = opts.overlap ?? 200;
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`chunk size must be a positive integer, got ${size}`);
  if (!Number.isInteger(overlap) || overlap < 0 || overlap >= size) {
    throw new RangeError(`chunk overlap must be a whole number below the size (${size}), got ${overlap}`);
  }
  const chunks: Chunk[] = [];
  let start = skipSpace(text, 0, text.length);
  while (start < text.length) {
    const end = text.length - start <= size ? text.length : findCut(text, start, size, overlap);
    let trimmedEnd = end;
    while (trimmedEnd > start && /\s/.test(text[trimmedEnd - 1] ?? '')) trimmedEnd -= 1;
    if (trimmedEnd > start)
      chunks.push({ index: chunks.length, text: text.slice(start, trimmedEnd), start, end: trimmedEnd });
    if (end >= text.length) break;
    start = nextStart(text, start, end, overlap);
  }
  return chunks;
}

/**
 * Where the chunk starting at `start` ends: the latest preferred boundary in the back half of the
 * window (and past the overlap, so every chunk moves forward), else a hard cut at the size.
 */
function findCut(text: string, start: number, size: number, overlap: number): number {
  const hi = start + size;
  const lo = start + Math.max(Math.ceil(size / 2), overlap + 1);
  const window = text.slice(start, hi);
  for (const boundary of BOUNDARIES) {
    let best = -1;
    for (const match of window.matchAll(boundary)) {
      const cut = start + match.index + match[0].length;
      if (cut >= lo && cut <= hi) best = cut;
    }
    if (best !== -1) return best;
  }
  const splitsPair = /[\ud800-\udbff]/.test(text[hi - 1] ?? '') && hi - 1 > lo;
  return splitsPair ? hi - 1 : hi; // never cut an astral character in half
}

/**
 * Start of the next chunk: within the last `overlap` characters before the cut, the first sentence
 * start, else the first word start, so the repeated context reads cleanly.
 */
function nextStart(text: string, start: number, end: number, overlap: number): number {
  const from = Math.max(end - overlap, start + 1);
  const startsWithin = (at: number): boolean => at < end && /\S/.test(text.slice(at, end));
  const sentence = firstMatchEnd(text.slice(from, end), SENTENCE_END);
  if (sentence !== null && startsWithin(from + sentence)) return from + sentence;
  if (/\s/.test(text[from - 1] ?? ' ')) return skipSpace(text, from, text.length); // already a word start
  const word = firstMatchEnd(text.slice(from, end), /\s+/g);
  if (word !== null && startsWithin(from + word)) return from + word;
  return skipSpace(text, from, text.length);
}

function firstMatchEnd(text: string, pattern: RegExp): number | null {
  const match = text.matchAll(pattern).next();
  return match.done === true ? null : match.value.index + match.value[0].length;
}

function skipSpace(text: string, from: number, limit: number): number {
  let at = from;
  while (at < limit && /\s/.test(text[at] ?? '')) at += 1;
  return at;
}
