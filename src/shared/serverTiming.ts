// Where a request's time went, as the W3C Server-Timing response header says it (`embed;dur=23.9, vector;dur=8.1`):
// the HTTP layer opens a record around each route (src/http/app.ts) and a phase of work anywhere below it measures
// itself with `phase`. Phases run side by side overlap; each says its own wall time. Outside a request (a worker, a
// bench calling the service's functions) nothing is recorded and `phase` only runs the work. docs/recall.md names
// the phases recall records; bench/recallScale.ts reads them to say where a hybrid question's time goes.
import { AsyncLocalStorage } from 'node:async_hooks';

/** A request's phases in the order they ended: [name, milliseconds]. */
type Phases = [string, number][];

const current = new AsyncLocalStorage<Phases>();

/** Runs a request's work with a record of its phases; `header` is what Server-Timing says of them (empty: none). */
export async function withTiming<T>(work: () => Promise<T>): Promise<{ value: T; header: string }> {
  const phases: Phases = [];
  const value = await current.run(phases, work);
  return { value, header: serverTiming(phases) };
}

/** Runs `work` as the phase `name` of the current request, if any. */
export async function phase<T>(name: string, work: () => Promise<T>): Promise<T> {
  const end = begin(name);
  try {
    return await work();
  } finally {
    end();
  }
}

/** Runs synchronous `work` as the phase `name` of the current request, if any. */
export function phaseSync<T>(name: string, work: () => T): T {
  const end = begin(name);
  try {
    return work();
  } finally {
    end();
  }
}

/** Starts the phase `name` of the current request; the returned function records it (nothing outside a request). */
function begin(name: string): () => void {
  const phases = current.getStore();
  if (!phases) return () => undefined;
  const began = performance.now();
  return () => phases.push([name, performance.now() - began]);
}

/** The header's value: each phase once (a phase run twice says its total), in the order the phases first ended. */
export function serverTiming(record: readonly [string, number][]): string {
  const total = new Map<string, number>();
  for (const [name, ms] of record) total.set(name, (total.get(name) ?? 0) + ms);
  return [...total].map(([name, ms]) => `${name};dur=${ms.toFixed(1)}`).join(', ');
}

/** The phases a Server-Timing header says: name → milliseconds (a malformed entry is skipped). */
export function readServerTiming(header: string | null): Map<string, number> {
  const phases = new Map<string, number>();
  for (const entry of (header ?? '').split(',')) {
    const [name, ...params] = entry.trim().split(';');
    const dur = params.map((p) => /^\s*dur=([0-9.]+)\s*$/.exec(p)?.[1]).find((d) => d !== undefined);
    if (name && dur !== undefined) phases.set(name, Number(dur));
  }
  return phases;
}
