// A node found by an id that is not a parameter (an UNWIND variable, a list element, a row's field) seeks
// the unique id index, always: each such MATCH names it with USING INDEX. Without the hint the planner may
// scan the whole index once per id instead, and did: memories/by_ids and memories/edges were planned as a
// NodeIndexScan of Knowledge(id) per id (10 ids x 3,000 nodes read at 3,000 memories, 30 ms of the engine
// per search; issue 27). A lookup by a parameter ({id: $id}) names it too when the statement also reads that
// node's project_id: the planner may then take the project's index instead and read every node of the project,
// and did (bridges/get, planned as a NodeIndexScan of Knowledge(project_id) mid-suite; connections/get, as a
// seek of it). A parameter lookup with no such predicate has no other index to take.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

const CYPHER = path.resolve(import.meta.dirname, '../../cypher');

/**
 * Folders left out: schema/ (migrations and seeds, run once at start on a handful of nodes) and examples/
 * (queries written for knowledge engineers to read in the Neo4j Browser, not run by the service).
 */
const NOT_SERVICE_READS = new Set(['schema', 'examples']);

/** The statements the service runs: every .cypher file under cypher/ but those folders. */
function serviceStatements(): string[] {
  return fs
    .readdirSync(CYPHER, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.cypher') && !NOT_SERVICE_READS.has(f.split(path.sep)[0]!));
}

/**
 * Every MATCH of a node by a non-parameter id in a statement, and by a parameter id where the statement reads
 * that node's project_id, with whether its USING INDEX (or USING INDEX SEEK) follows.
 */
function idLookups(text: string): { variable: string; id: string; hinted: boolean }[] {
  const code = text.replace(/\/\/.*$/gm, '');
  const lookups: { variable: string; id: string; hinted: boolean }[] = [];
  for (const match of code.matchAll(/MATCH\s*\((\w+):([\w:]+)\s*\{\s*id:\s*([^},]+)\}\)/g)) {
    const [, variable, labels, id] = match as unknown as [string, string, string, string];
    if (id.trim().startsWith('$') && !new RegExp(`\\b${variable}\\.project_id\\b`).test(code)) continue;
    // The hint comes after the pattern, before the next clause: within the rest of this MATCH.
    const rest = code
      .slice(match.index + match[0].length)
      .split(/\n(?=\s*(?:MATCH|OPTIONAL|WITH|RETURN|UNWIND|CALL|CREATE|MERGE|SET)\b)/)[0]!;
    const hinted = labels
      .split(':')
      .some((label) => new RegExp(`USING\\s+INDEX\\s+(?:SEEK\\s+)?${variable}:${label}\\(id\\)`).test(rest));
    lookups.push({ variable, id: id.trim(), hinted });
  }
  return lookups;
}

describe('a node found by an id that is not a parameter, or beside its project, seeks the id index', () => {
  it('the scan finds the lookups it is about, hinted or not', () => {
    assert.deepEqual(idLookups('UNWIND $ids AS id\nMATCH (m:Knowledge {id: id})\nRETURN m'), [
      { variable: 'm', id: 'id', hinted: false },
    ]);
    assert.deepEqual(
      idLookups('UNWIND $ids AS id\nMATCH (m:Knowledge {id: id})-[r]-(o)\nUSING INDEX m:Knowledge(id)\nWHERE o.x = 1'),
      [{ variable: 'm', id: 'id', hinted: true }],
    );
    assert.deepEqual(idLookups('MATCH (d:Delta {id: $delta_id})\nRETURN d'), []);
    assert.deepEqual(idLookups('MATCH (b:Bridge:Knowledge {id: $id})\nWHERE b.project_id = $project_id\nRETURN b'), [
      { variable: 'b', id: '$id', hinted: false },
    ]);
  });

  it('every such MATCH in cypher/ names the index it seeks (USING INDEX)', () => {
    const unhinted = serviceStatements().flatMap((file) =>
      idLookups(fs.readFileSync(path.join(CYPHER, file), 'utf8'))
        .filter((l) => !l.hinted)
        .map((l) => `${file}: (${l.variable} {id: ${l.id}})`),
    );
    assert.deepEqual(unhinted, []);
  });
});
