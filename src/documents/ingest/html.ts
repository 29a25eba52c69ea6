// Turns a web page into the readable text worth indexing: scripts, styles and other non-prose are
// dropped, blocks become line breaks and paragraphs stay apart so chunking can cut at them.
// htmlparser2 is used because real pages are malformed (unclosed <p>, stray tags, every named
// entity): its tolerant streaming tokenizer handles that in one small dependency with no DOM.
import { Parser } from 'htmlparser2';
import { tidyText } from './whitespace.js';

export interface HtmlText {
  title: string | null;
  text: string;
}

/** Elements whose content is never prose. */
const SKIPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'math',
  'iframe',
  'object',
  'canvas',
  'select',
  'button',
]);

/** Elements that separate paragraphs (a blank line). */
const PARAGRAPHS = new Set([
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'section',
  'article',
  'header',
  'footer',
  'main',
  'aside',
  'nav',
  'blockquote',
  'pre',
  'table',
  'ul',
  'ol',
  'dl',
  'figure',
  'form',
  'fieldset',
  'hr',
  'address',
  'details',
]);

/** Elements that start a new line. */
const LINES = new Set(['div', 'li', 'tr', 'dt', 'dd', 'figcaption', 'caption', 'summary', 'option', 'legend', 'body']);

/** Table cells stay on their row, apart from each other. */
const CELLS = new Set(['td', 'th']);

const LINE_BREAK = 1;
const PARAGRAPH_BREAK = 2;

export function htmlToText(html: string): HtmlText {
  const pieces: string[] = [];
  // Breaks wait until the next text so that adjacent block edges (</li><li>) give one break, not two.
  let pendingBreak = 0;
  let skipDepth = 0;
  let headDepth = 0;
  let preDepth = 0;
  let title: string | null = null;
  let titleBuffer: string[] | null = null;
  let h1Buffer: string[] | null = null;
  let firstH1: string | null = null;

  const breakFor = (name: string): void => {
    if (name === 'br')
      pendingBreak = Math.min(PARAGRAPH_BREAK, pendingBreak + 1); // <br><br> parts paragraphs
    else if (PARAGRAPHS.has(name)) pendingBreak = PARAGRAPH_BREAK;
    else if (LINES.has(name)) pendingBreak = Math.max(pendingBreak, LINE_BREAK);
    else if (CELLS.has(name)) pieces.push(' ');
  };
  const write = (text: string): void => {
    if (!/\S/.test(text)) {
      if (pendingBreak === 0) pieces.push(text);
      return;
    }
    if (pendingBreak > 0) pieces.push('\n'.repeat(pendingBreak));
    pendingBreak = 0;
    pieces.push(text);
  };

  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (skipDepth > 0 || SKIPPED.has(name) || 'hidden' in attribs) {
          skipDepth += 1;
          return;
        }
        if (name === 'head') headDepth += 1;
        if (name === 'title' && title === null) titleBuffer = [];
        if (name === 'h1' && firstH1 === null) h1Buffer = [];
        if (name === 'pre') preDepth += 1;
        breakFor(name);
      },
      ontext(data) {
        if (skipDepth > 0) return;
        if (titleBuffer !== null) titleBuffer.push(data);
        if (headDepth > 0) return;
        h1Buffer?.push(data);
        write(preDepth > 0 ? data : data.replace(/\s+/g, ' '));
      },
      onclosetag(name) {
        if (skipDepth > 0) {
          skipDepth -= 1;
          return;
        }
        if (name === 'head') headDepth = Math.max(0, headDepth - 1);
        if (name === 'title' && titleBuffer !== null) {
          title = collapse(titleBuffer.join(''));
          titleBuffer = null;
        }
        if (name === 'h1' && h1Buffer !== null) {
          firstH1 = collapse(h1Buffer.join(''));
          h1Buffer = null;
        }
        if (name === 'pre') preDepth = Math.max(0, preDepth - 1);
        if (name !== 'br') breakFor(name); // void: its opening already broke the line
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();

  return { title: nonEmpty(title) ?? nonEmpty(firstH1), text: tidyText(pieces.join('')) };
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function nonEmpty(text: string | null): string | null {
  return text === null || text === '' ? null : text;
}
