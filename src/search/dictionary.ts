// Whether a word is an ordinary English one: the word-list package (MIT; ~274,000 English words and their
// inflections, from SCOWL), read once on first use. Recall's rare-word rule (src/memories/graphRecall.ts) tells a
// codename or a term of art ("kubernetes", "zorblax"), which names one thing, from a dictionary word that only
// happens to be rare in a project.
import fs from 'node:fs';
import wordListPath from 'word-list';

let words: Set<string> | null = null;

export function isEnglishWord(word: string): boolean {
  words ??= new Set(fs.readFileSync(wordListPath, 'utf8').split('\n'));
  return words.has(word.toLowerCase());
}
