// Rebuilds a document's text from its overlapping chunks, so extraction sees whole sentences that
// straddle a chunk boundary once, not twice.

const MAX_OVERLAP = 400;

export function joinChunks(chunks: { text: string }[]): string {
  let text = '';
  for (const chunk of chunks) {
    if (text === '') {
      text = chunk.text;
      continue;
    }
    let overlap = 0;
    for (let k = Math.min(MAX_OVERLAP, chunk.text.length, text.length); k > 0; k -= 1) {
      if (text.endsWith(chunk.text.slice(0, k))) {
        overlap = k;
        break;
      }
    }
    text += chunk.text.slice(overlap);
  }
  return text;
}
