// Turns Markdown into plain text for the briefing's `text` field: the LLM answers in Markdown only,
// and memory content may carry inline Markdown. Small on purpose: it removes the syntax a briefing
// uses (headings, lists, quotes, emphasis, code, links, rules, tables) and keeps the words.

export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

const CODE_SPAN = /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g;
const ESCAPE = /\\([\\`*_{}[\]()#+\-.!>|~])/g;
// eslint-disable-next-line no-control-regex -- NUL marks placeholders that Markdown text cannot contain
const PLACEHOLDER = /\u0000(\d+)\u0000/g;

/** Inline syntax only: emphasis, strikethrough, inline code, links, images, autolinks, escapes. */
export function stripInlineMarkdown(line: string): string {
  // Code spans and escaped characters are set aside first so they are kept literally.
  const literals: string[] = [];
  const setAside = (literal: string): string => `\u0000${literals.push(literal) - 1}\u0000`;
  const out = line
    .replace(CODE_SPAN, (_match, _ticks: string, code: string) => setAside(code.trim()))
    .replace(ESCAPE, (_match, char: string) => setAside(char))
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1')
    .replace(/<((?:https?|mailto):[^>\s]+)>/g, '$1')
    .replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, '$2')
    .replace(/\*([^\s*](?:[^*]*[^\s*])?)\*/g, '$1')
    .replace(/(^|[^\w])_([^\s_](?:[^_]*[^\s_])?)_(?!\w)/g, '$1$2')
    .replace(/~~(?=\S)([\s\S]*?\S)~~/g, '$1');
  return out.replace(PLACEHOLDER, (_match, index: string) => literals[Number(index)] ?? '');
}

/** One line outside code blocks; undefined when the line is pure syntax that leaves no trace. */
function stripBlockLine(line: string): string | undefined {
  if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) return ''; // thematic break
  if (/^\s*=+\s*$/.test(line)) return undefined; // setext heading underline
  if (/^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/.test(line)) return undefined; // table separator
  if (/^\s{0,3}\[[^\]]+\]:\s+\S+/.test(line)) return undefined; // link reference definition
  const heading = /^\s{0,3}#{1,6}(?:\s+|$)(.*?)(?:\s+#+)?\s*$/.exec(line);
  let out = (heading === null ? line : (heading[1] ?? ''))
    .replace(/^\s*(>\s?)+/, '')
    .replace(/^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?/, '');
  if (/^\s*\|.*\|\s*$/.test(out)) {
    out = out
      .trim()
      .slice(1, -1)
      .split('|')
      .map((cell) => cell.trim())
      .join('; ');
  }
  return stripInlineMarkdown(out).trimEnd();
}

/** Markdown to plain text: block syntax removed line by line, code block contents kept as written. */
export function stripMarkdown(markdown: string): string {
  const lines: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    const opener = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined && opener !== undefined) {
      fence = opener;
      continue;
    }
    if (fence !== undefined) {
      if (line.trim().startsWith(fence) && line.trim().replace(/[`~]/g, '') === '') fence = undefined;
      else lines.push(line);
      continue;
    }
    const plain = stripBlockLine(line);
    if (plain !== undefined) lines.push(plain);
  }
  return lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
