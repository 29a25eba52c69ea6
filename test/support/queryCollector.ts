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
