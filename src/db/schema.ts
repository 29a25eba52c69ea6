// Applies cypher/schema/*.cypher in file-name order at start. Every statement is idempotent
// (IF NOT EXISTS, MERGE), so this runs on every start; indexes are awaited before serving.
import type { Graph } from './graph.js';
import { cypherFolder, splitStatements } from './cypher.js';

export async function applySchema(graph: Graph): Promise<number> {
  let count = 0;
  for (const file of cypherFolder('schema')) {
    const statements = splitStatements(file.text);
    for (const statement of statements) {
      // Schema statements cannot share a transaction with writes, so each runs on its own.
      await graph.write((tx) => tx.runText(statement), { purpose: `schema:${file.name}` });
      count += 1;
    }
  }
  await graph.read((tx) => tx.runText('CALL db.awaitIndexes(300)'));
  return count;
}
