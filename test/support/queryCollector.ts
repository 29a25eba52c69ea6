// Neo4j's own query collector around a piece of work: every statement run meanwhile, with each invocation's
// parameters and compile time (a plan found in the cache compiles in well under a millisecond; one planned anew
// takes tens of them). For tests of which statements a request plans again.
import type { Graph } from '../../src/db/graph.js';

export interface Invocation {
  elapsedCompileTimeInUs: number;
  params?: Record<string, unknown>;
}

/** The statements (their text as the collector keeps it: a long one's head) run while `work` ran, with their runs. */
export async function collectQueries(
  graph: Graph,
  work: () => Promise<void>,
): Promise<{ query: string; calls: Invocation[] }[]> {
  const admin = (text: string) => graph.write((tx) => tx.runText(text));
  await admin("CALL db.stats.stop('QUERIES')").catch(() => undefined); // none may be running
  await admin("CALL db.stats.clear('QUERIES')");
  await admin("CALL db.stats.collect('QUERIES')");
  try {
    await work();
  } finally {
    await admin("CALL db.stats.stop('QUERIES')");
  }
  const rows = await graph.read((tx) =>
    tx.runText("CALL db.stats.retrieve('QUERIES') YIELD data RETURN data.query AS query, data.invocations AS calls"),
  );
  await admin("CALL db.stats.clear('QUERIES')");
  return rows.map((row) => ({ query: String(row.query), calls: (row.calls ?? []) as unknown as Invocation[] }));
}

/** A plan found in the cache compiles in well under a millisecond; a statement planned anew takes tens of them. */
const PLANNED_US = 20_000;

/** The head of every statement run for `projectId` while `work` ran that was planned anew, with its compile time. */
export async function plannedDuring(graph: Graph, projectId: string, work: () => Promise<void>): Promise<string[]> {
  const planned: string[] = [];
  for (const row of await collectQueries(graph, work))
    for (const call of row.calls)
      if (call.params?.project_id === projectId && call.elapsedCompileTimeInUs >= PLANNED_US)
        planned.push(`${row.query.slice(0, 60)}: ${Math.round(call.elapsedCompileTimeInUs / 1000)} ms`);
  return planned;
}

/** Empties Neo4j's plan cache, so what a rehearsal planned is all a later request finds. */
export const clearPlans = (graph: Graph) => graph.write((tx) => tx.runText('CALL db.clearQueryCaches()'));
