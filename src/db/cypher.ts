// Loads the named Cypher statements kept under cypher/<area>/<name>.cypher. Statements are read once
// and referred to by "area/name"; values are always passed as $parameters, never glued into text.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CYPHER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../cypher');

const cache = new Map<string, string>();
/** How often this process ran each named statement: the graph plans the most used ones again after Neo4j restarts. */
const uses = new Map<string, number>();

/**
 * A line `// include: area/name` in a statement stands for that file's text: a fragment several statements share
 * (cypher/auth/standing_subquery.cypher, the reads of a carried standing check), written once. A fragment is not
 * a statement of its own; it may include fragments in turn (memories/walk_from_terms includes
 * memories/candidate_links), at most MAX_INCLUDE_DEPTH deep.
 */
const INCLUDE = /^[ \t]*\/\/ include: ([a-z_]+\/[a-z_0-9]+)[ \t]*$/gm;

/** How deep fragments may include fragments (a cycle of includes fails at load, not in a loop). */
const MAX_INCLUDE_DEPTH = 3;

function readStatement(name: string): string {
  const file = path.join(CYPHER_DIR, `${name}.cypher`);
  if (!file.startsWith(CYPHER_DIR + path.sep)) throw new Error(`bad statement name ${name}`);
  return fs.readFileSync(file, 'utf8');
}

/** Each loaded statement's fragments (its include lines), by name. */
const fragments = new Map<string, string[]>();

/**
 * The statement as sent: its comments (// to the line's end, and /* ... *\/) dropped and each run of whitespace made
 * one space, or one line break where it held one; strings ('...', "...") and quoted names (`...`) are kept as
 * written. The files explain themselves at length, and every byte of a statement is sent with every run: the Bolt
 * driver writes a message in 1,400-byte chunks, each a socket write that wakes Neo4j (deltas/create, which every
 * governed write sends: 3.9 KB with its comments, 2.1 KB without), and Neo4j reads and hashes the text for its plans.
 */
export function compact(text: string): string {
  let out = '';
  let space = ''; // the whitespace (or comment) seen since the last token: '', ' ' or '\n'
  const n = text.length;
  const flush = () => {
    if (space !== '' && out !== '') out += space;
    space = '';
  };
  for (let i = 0; i < n;) {
    const c = text[i]!;
    if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < n) {
        if (text[j] === '\\' && c !== '`') j += 2;
        else if (text[j] === c && c === '`' && text[j + 1] === '`') j += 2;
        else if (text[j] === c) break;
        else j += 1;
      }
      flush();
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < n && text[i] !== '\n') i += 1;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
      if (space === '') space = ' ';
    } else if (/\s/.test(c)) {
      if (c === '\n') space = '\n';
      else if (space === '') space = ' ';
      i += 1;
    } else {
      flush();
      out += c;
      i += 1;
    }
  }
  return out;
}

/** The statement's text, each include line replaced by its fragment's (expanded in turn), collected in `included`. */
function expand(name: string, included: string[], depth: number): string {
  if (depth > MAX_INCLUDE_DEPTH)
    throw new Error(`${name}: fragments include each other more than ${MAX_INCLUDE_DEPTH} deep`);
  return readStatement(name).replace(INCLUDE, (_line, fragment: string) => {
    included.push(fragment);
    return expand(fragment, included, depth + 1).trimEnd();
  });
}

function load(name: string): string {
  let text = cache.get(name);
  if (text === undefined) {
    const included: string[] = [];
    text = compact(expand(name, included, 0));
    cache.set(name, text);
    fragments.set(name, included);
  }
  return text;
}

export function cypher(name: string): string {
  uses.set(name, (uses.get(name) ?? 0) + 1);
  return load(name);
}

/** Whether the named statement includes the fragment (an include line naming it). */
export function includes(name: string, fragment: string): boolean {
  load(name);
  return fragments.get(name)?.includes(fragment) ?? false;
}

/** How often this process ran the named statement. */
export function timesRun(name: string): number {
  return uses.get(name) ?? 0;
}

/** The names of the statements this process ran most, most used first. */
export function mostUsedStatements(limit: number): string[] {
  return [...uses.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, limit)
    .map(([name]) => name);
}

/** Every statement file of a folder, sorted by file name: "schema" gives the ordered migrations. */
export function cypherFolder(folder: string): { name: string; text: string }[] {
  const dir = path.join(CYPHER_DIR, folder);
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.cypher'))
    .sort()
    .map((f) => ({
      name: `${folder}/${f.replace(/\.cypher$/, '')}`,
      text: fs.readFileSync(path.join(dir, f), 'utf8'),
    }));
}

/** Splits a file holding several statements separated by semicolons at line ends (schema files). */
export function splitStatements(text: string): string[] {
  return text
    .split(/;\s*(?:\r?\n|$)/)
    .map((s) => s.replace(/^\s*\/\/.*$/gm, '').trim())
    .filter((s) => s.length > 0);
}
