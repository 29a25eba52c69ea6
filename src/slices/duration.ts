// ISO-8601 durations for a slice's rolling time window ({last: "P30D"}): years, months, weeks,
// days, hours, minutes and whole seconds. Years and months are calendar steps (UTC), the rest fixed.

/** The pattern published in OpenAPI; parseDuration accepts exactly what it matches. */
export const DURATION_PATTERN = '^P(?!$)(\\d+Y)?(\\d+M)?(\\d+W)?(\\d+D)?(T(?=\\d)(\\d+H)?(\\d+M)?(\\d+S)?)?$';
const DURATION = new RegExp(DURATION_PATTERN);

export interface Duration {
  years: number;
  months: number;
  weeks: number;
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

export function parseDuration(text: string): Duration | null {
  const m = DURATION.exec(text);
  if (!m) return null;
  const n = (g: string | undefined) => (g ? Number(g.slice(0, -1)) : 0);
  const d = {
    years: n(m[1]),
    months: n(m[2]),
    weeks: n(m[3]),
    days: n(m[4]),
    hours: n(m[6]),
    minutes: n(m[7]),
    seconds: n(m[8]),
  };
  return d;
}

/** The earliest window start: a duration reaching further back is clamped here (year 1, UTC). */
const EARLIEST = new Date('0001-01-01T00:00:00Z').getTime();

/** The instant `duration` before `end`. */
export function subtractDuration(end: Date, duration: Duration): Date {
  const t = new Date(end.getTime());
  if (duration.years || duration.months) t.setUTCMonth(t.getUTCMonth() - duration.months - 12 * duration.years);
  const ms =
    ((((duration.weeks * 7 + duration.days) * 24 + duration.hours) * 60 + duration.minutes) * 60 + duration.seconds) *
    1000;
  const start = t.getTime() - ms;
  return new Date(Number.isFinite(start) && start > EARLIEST ? start : EARLIEST);
}
