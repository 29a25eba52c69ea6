// A statement may include a fragment several statements share (src/db/cypher.ts): the standing check's reads,
// written once for every statement that carries it (src/db/graph.ts).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { CYPHER_DIR, compact, cypher, includes } from '../../src/db/cypher.js';

const FRAGMENT = 'auth/standing_subquery';

/** Every statement file that names the fragment in an include line. */
function includers(): string[] {
  return fs
    .readdirSync(CYPHER_DIR, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.cypher'))
    .filter((f) => fs.readFileSync(path.join(CYPHER_DIR, f), 'utf8').includes(`// include: ${FRAGMENT}\n`))
    .map((f) =>
      f
        .replace(/\.cypher$/, '')
        .split(path.sep)
        .join('/'),
    );
}

describe('a statement includes a shared fragment', () => {
  it('the include line stands for the fragment, and includes() names the statements that carry it', () => {
    const text = cypher('memories/get');
    assert.doesNotMatch(text, /\/\/ include:/);
    const fragment = compact(fs.readFileSync(path.join(CYPHER_DIR, `${FRAGMENT}.cypher`), 'utf8'));
    assert.ok(text.includes(fragment), 'the fragment is in the statement, whole (as sent: without its comments)');
    assert.equal(includes('memories/get', FRAGMENT), true);
    assert.equal(includes('memories/recent', FRAGMENT), false);
  });

  it('every statement that includes the standing check answers it as standing, and names its parameter', () => {
    const found = includers();
    assert.deepEqual(found.sort(), [
      'context/chunks_search',
      'context/entities_search',
      'context/memories_search',
      'deltas/create',
      'memories/get',
      'memories/search',
    ]);
    for (const name of found) {
      const text = cypher(name);
      assert.equal(includes(name, FRAGMENT), true, name);
      const last = text.slice(text.lastIndexOf('\nRETURN '));
      assert.match(last, /\bstanding\b/, `${name} returns standing`);
      assert.match(text, /\$standing\.id/, name);
    }
  });

  it("a fragment may include a fragment: the walk's shared part carries recall's candidate links into both walks", () => {
    const links = compact(fs.readFileSync(path.join(CYPHER_DIR, 'memories/candidate_links.cypher'), 'utf8'));
    for (const name of ['memories/walk_near', 'memories/walk_held']) {
      const text = cypher(name);
      assert.doesNotMatch(text, /\/\/ include:/, name);
      assert.ok(text.includes(links), `${name} holds memories/candidate_links, whole`);
      assert.equal(includes(name, 'memories/walk_from_terms'), true, name);
      assert.equal(includes(name, 'memories/candidate_links'), true, name);
    }
  });

  it('a statement is sent without its comments, its strings and quoted names as written', () => {
    const text =
      "MATCH (n) // a 'comment'\n  WHERE n.url = 'http://x // y' /* z */ AND n.`a//b` = \"c\\\"//\"\n\n// end\n";
    assert.equal(compact(text), 'MATCH (n)\nWHERE n.url = \'http://x // y\' AND n.`a//b` = "c\\"//"');
    for (const name of ['deltas/create', 'memories/search']) {
      const sent = cypher(name);
      assert.doesNotMatch(sent, /^\s*\/\//m, `${name} has no comment line`);
      assert.ok(sent.length < fs.readFileSync(path.join(CYPHER_DIR, `${name}.cypher`), 'utf8').length, name);
    }
  });

  it("the standing check's fragment includes no fragment of its own", () => {
    assert.doesNotMatch(fs.readFileSync(path.join(CYPHER_DIR, `${FRAGMENT}.cypher`), 'utf8'), /\/\/ include:/);
  });
});
