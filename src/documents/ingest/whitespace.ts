// One rule for the whitespace of extracted text, shared by every format, so the chunker always
// sees the same shape: trimmed lines, single spaces, paragraphs apart by exactly one blank line.

export function tidyText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/[^\S\n]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
