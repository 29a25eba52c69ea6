// Time expressions of a question (docs/recall.md, "Time"): "in May 2023", "on 3 June, 2023", "June 2023",
// "in 2022", "last May", "last week", "yesterday", "two weeks ago", "the week before August 3, 2023". Each becomes a
// window [from, to) of UTC time, relative ones anchored at `now` (the time the question is asked, or its as_of).
// Recall's time channel prefers memories observed in a window or within a week after it, when what happened is
// told. Pure and deterministic: the same question and `now` give the same windows.

export interface TimeWindow {
  /** The words of the question it was read from. */
  expression: string;
  from: Date;
  to: Date;
}

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const MONTH =
  // eslint-disable-next-line max-len -- one pattern reads best on one line
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const SEASONS: Record<string, number> = { spring: 2, summer: 5, autumn: 8, fall: 8, winter: 11 };
const NUMBERS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  couple: 2,
  few: 3,
  several: 3,
};
const DAY = 86_400_000;

const monthOf = (word: string): number => MONTHS.findIndex((m) => m.startsWith(word.toLowerCase().slice(0, 3)));
const utc = (y: number, m: number, d = 1): Date => new Date(Date.UTC(y, m, d));
const addDays = (at: Date, days: number): Date => new Date(at.getTime() + days * DAY);
const startOfDay = (at: Date): Date => utc(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
/** Monday of the week holding `at`. */
const startOfWeek = (at: Date): Date => addDays(startOfDay(at), -((at.getUTCDay() + 6) % 7));

function amount(word: string): number {
  const n = Number(word);
  return Number.isFinite(n) ? n : (NUMBERS[word.toLowerCase()] ?? 1);
}

function shift(at: Date, n: number, unit: string): Date {
  const u = unit.replace(/s$/, '');
  if (u === 'day') return addDays(at, n);
  if (u === 'week' || u === 'weekend') return addDays(at, 7 * n);
  if (u === 'month') return utc(at.getUTCFullYear(), at.getUTCMonth() + n, at.getUTCDate());
  return utc(at.getUTCFullYear() + n, at.getUTCMonth(), at.getUTCDate());
}

interface Found {
  start: number;
  end: number;
  from: Date;
  to: Date;
}

/** Absolute dates, most specific first; each span of the text is read once. */
function absolute(text: string): Found[] {
  const found: Found[] = [];
  const taken = (start: number) => found.some((f) => start >= f.start && start < f.end);
  const push = (m: RegExpExecArray, from: Date, to: Date) => {
    if (!taken(m.index) && !Number.isNaN(from.getTime()))
      found.push({ start: m.index, end: m.index + m[0].length, from, to });
  };
  const day = (m: RegExpExecArray, y: string, mo: string, d: string) => {
    const from = utc(Number(y), monthOf(mo), Number(d));
    push(m, from, addDays(from, 1));
  };
  for (const m of text.matchAll(/\b(\d{4})-(\d{2})-(\d{2})\b/g)) {
    const from = utc(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
    push(m as RegExpExecArray, from, addDays(from, 1));
  }
  for (const m of text.matchAll(
    new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH},?\\s+(\\d{4})\\b`, 'gi'),
  ))
    day(m as RegExpExecArray, m[3]!, m[2]!, m[1]!);
  for (const m of text.matchAll(new RegExp(`\\b${MONTH}\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'gi')))
    day(m as RegExpExecArray, m[3]!, m[1]!, m[2]!);
  for (const m of text.matchAll(new RegExp(`\\b${MONTH},?\\s+(\\d{4})\\b`, 'gi'))) {
    const y = Number(m[2]);
    const mo = monthOf(m[1]!);
    push(m as RegExpExecArray, utc(y, mo), utc(y, mo + 1));
  }
  for (const m of text.matchAll(/\b(spring|summer|autumn|fall|winter)\s+(?:of\s+)?(\d{4})\b/gi)) {
    const start = SEASONS[m[1]!.toLowerCase()]!;
    push(m as RegExpExecArray, utc(Number(m[2]), start), utc(Number(m[2]), start + 3));
  }
  for (const m of text.matchAll(/\b(?:in|during|of|since|from|by|before|after)\s+((?:19|20)\d{2})\b/gi)) {
    const at = m.index + m[0].length - 4;
    if (!taken(at)) found.push({ start: at, end: at + 4, from: utc(Number(m[1]), 0), to: utc(Number(m[1]) + 1, 0) });
  }
  return found;
}

/** Expressions relative to now: "yesterday", "last week", "two weeks ago", "last May", "last summer", "last Friday". */
function relative(text: string, now: Date, taken: (i: number) => boolean): Found[] {
  const found: Found[] = [];
  const push = (m: RegExpMatchArray, from: Date, to: Date) => {
    if (!taken(m.index!)) found.push({ start: m.index!, end: m.index! + m[0].length, from, to });
  };
  const today = startOfDay(now);
  for (const m of text.matchAll(/\b(yesterday|today|tonight|this morning)\b/gi)) {
    const from = m[1]!.toLowerCase() === 'yesterday' ? addDays(today, -1) : today;
    push(m, from, addDays(from, 1));
  }
  for (const m of text.matchAll(/\b(last|this|past)\s+(week|weekend|month|year)\b/gi)) {
    const which = m[1]!.toLowerCase();
    const unit = m[2]!.toLowerCase();
    if (unit === 'week' || unit === 'weekend') {
      const week = startOfWeek(now);
      const start = which === 'this' ? week : addDays(week, -7);
      push(m, unit === 'weekend' ? addDays(start, 5) : start, addDays(start, 7));
    } else if (unit === 'month') {
      const start = utc(now.getUTCFullYear(), now.getUTCMonth() - (which === 'this' ? 0 : 1));
      push(m, start, utc(start.getUTCFullYear(), start.getUTCMonth() + 1));
    } else {
      const y = now.getUTCFullYear() - (which === 'this' ? 0 : 1);
      push(m, utc(y, 0), utc(y + 1, 0));
    }
  }
  for (const m of text.matchAll(
    // eslint-disable-next-line max-len -- one pattern reads best on one line
    /\b(\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|couple of|few|several)\s+(days?|weeks?|months?|years?)\s+ago\b/gi,
  )) {
    const n = amount(m[1]!.replace(/ of$/, ''));
    const unit = m[2]!.toLowerCase();
    const at = shift(today, -n, unit);
    const span = unit.startsWith('day') ? 1 : unit.startsWith('week') ? 7 : unit.startsWith('month') ? 31 : 366;
    // "two weeks ago" is about then, give or take half of its unit.
    push(m, addDays(at, -Math.floor(span / 2)), addDays(at, Math.ceil(span / 2) + 1));
  }
  for (const m of text.matchAll(new RegExp(`\\b(last|this|in)\\s+${MONTH}\\b(?!,?\\s+\\d)`, 'gi'))) {
    const mo = monthOf(m[2]!);
    let y = now.getUTCFullYear();
    // The latest such month before now ("last May"), or not after now ("in May", "this May").
    if (mo > now.getUTCMonth() || (m[1]!.toLowerCase() === 'last' && mo === now.getUTCMonth())) y -= 1;
    push(m, utc(y, mo), utc(y, mo + 1));
  }
  for (const m of text.matchAll(/\b(last|this)\s+(spring|summer|autumn|fall|winter)\b/gi)) {
    const start = SEASONS[m[2]!.toLowerCase()]!;
    let y = now.getUTCFullYear();
    if (start > now.getUTCMonth() || m[1]!.toLowerCase() === 'last') y -= start >= now.getUTCMonth() ? 1 : 0;
    push(m, utc(y, start), utc(y, start + 3));
  }
  for (const m of text.matchAll(/\b(last|this)\s+(sunday|monday|tuesday|wednesday|thursday|friday|saturday)\b/gi)) {
    const wd = WEEKDAYS.indexOf(m[2]!.toLowerCase());
    let back = (now.getUTCDay() - wd + 7) % 7;
    if (back === 0 && m[1]!.toLowerCase() === 'last') back = 7;
    const from = addDays(today, -back);
    push(m, from, addDays(from, 1));
  }
  return found;
}

/**
 * A window read from an anchor date the words before it point away from: "the week before X", "two days after X",
 * "before X" (within a fortnight), "after X", "since X".
 */
function anchored(text: string, f: Found, now: Date): Found {
  const before = text.slice(Math.max(0, f.start - 40), f.start).toLowerCase();
  const m =
    // eslint-disable-next-line max-len -- one pattern reads best on one line
    /(?:(?:last|the|a)\s+)?(?:(\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|couple of|few)\s+)?(days?|weeks?|months?|weekend)?\s*(before|prior to|after|since)\s*$/.exec(
      before,
    );
  if (!m) return f;
  const start = f.start - (before.length - m.index);
  // "since X": from X until now.
  if (m[3] === 'since') return { start, end: f.end, from: f.from, to: now > f.to ? now : f.to };
  const unit = m[2] ?? 'weeks';
  const n = m[1] ? amount(m[1].replace(/ of$/, '')) : m[2] ? 1 : 2;
  if (m[3] === 'after') return { start, end: f.end, from: f.to, to: shift(f.to, n, unit) };
  return { start, end: f.end, from: shift(f.from, -n, unit), to: f.from };
}

/** The time windows a question names, in the order they appear. */
export function timeWindows(query: string, now: Date): TimeWindow[] {
  const found = absolute(query).map((f) => anchored(query, f, now));
  const taken = (i: number) => found.some((f) => i >= f.start && i < f.end);
  found.push(...relative(query, now, taken));
  return found
    .sort((a, b) => a.start - b.start)
    .map((f) => ({ expression: query.slice(f.start, f.end).trim(), from: f.from, to: f.to }));
}

/** How long after a window a memory still tells what happened in it ("last week we ..."). */
export const TOLD_WITHIN_DAYS = 7;

/** A stretch of time as epoch milliseconds, [from, to). */
export interface Span {
  from: number;
  to: number;
}

/** What recall's time channel reads of each window: the window and the TOLD_WITHIN_DAYS after it. */
export const toldSpans = (windows: readonly TimeWindow[]): Span[] =>
  windows.map((w) => ({ from: w.from.getTime(), to: w.to.getTime() + TOLD_WITHIN_DAYS * 86_400_000 }));

/** Spans as a statement takes them: ISO date-times (cypher/memories/observed.cypher's $windows). */
export const spanParams = (spans: readonly Span[]): { from: string; to: string }[] =>
  spans.map((s) => ({ from: new Date(s.from).toISOString(), to: new Date(s.to).toISOString() }));
