// Each area owns its data (docs/ARCHITECTURE.md): a Cypher statement lives in cypher/<area>/ and is
// run only from src/<area>/; another area that needs it calls that area's store or service. Every
// statement named in code resolves to a file. The few deliberate crossings are listed with why.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** "runner folder -> statement folder": why that folder runs the other's statements. */
const CROSSINGS: Record<string, string> = {
  'auth -> tenancy':
    'authentication resolves the project an organization key names (tenancy/find_project); auth is the ' +
    'foundation and may not import the tenancy service',
  'http -> idempotency': 'the idempotency middleware (src/http/idempotency.ts) owns the idempotency statements',
  'search -> memories':
    "unified search ranks the memory plane with the memories area's own recall statements, so one ranking " +
    'rule serves /v1/memories/search and /v1/search',
  'loops -> memories':
    "the hydrate loop's gather ranks memories by meaning with the memories area's vector statement, as recall does",
  'loops -> search':
    "the hydrate loop's gather ranks chunks and entities by meaning with unified search's vector statements",
  'temporal -> system': "the worker's start-up check reads the engine's components (cypher/system: engine-level)",
};

function walk(dir: string, ext: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return walk(full, ext);
    return entry.name.endsWith(ext) ? [full] : [];
  });
}

interface Use {
  file: string;
  runner: string;
  statement: string;
}

/** Statement names passed as string literals to tx.run / tx.one (typed or not), and the literal names of vector statements. */
function statementUses(): Use[] {
  const uses: Use[] = [];
  const files = [...walk(path.join(ROOT, 'src'), '.ts'), ...walk(path.join(ROOT, 'workflows'), '.ts')];
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    const rel = path.relative(ROOT, file);
    const runner = rel.split(path.sep)[1]!;
    // A typed call names its row type first: tx.run<Row>('area/name', ...), nearest<Row>(tx, 'area/name', ...).
    const patterns = [
      /\.(?:run|one)(?:<[^()]*?>)?\(\s*'([a-z_]+\/[a-z_0-9/]+)'/g,
      /nearest(?:<[^()]*?>)?\(\s*tx,\s*'([a-z_]+\/[a-z_0-9/]+)'/g,
    ];
    for (const pattern of patterns)
      for (const match of text.matchAll(pattern)) uses.push({ file: rel, runner, statement: match[1]! });
    // Tuples naming a statement for a later call (e.g. ['memories/vector', ...] in hydrate's gather).
    for (const match of text.matchAll(/\[\s*'([a-z_]+\/[a-z_0-9]+)',/g))
      if (fs.existsSync(path.join(ROOT, 'cypher', `${match[1]}.cypher`)))
        uses.push({ file: rel, runner, statement: match[1]! });
  }
  return uses;
}

describe('each area owns its statements (docs/ARCHITECTURE.md)', () => {
  const uses = statementUses();

  it('finds the statements the code runs', () => {
    assert.ok(uses.length > 150, `only ${uses.length} statement uses found: the scan is broken`);
  });

  it('every statement named in code is a file under cypher/', () => {
    const missing = uses.filter((u) => !fs.existsSync(path.join(ROOT, 'cypher', `${u.statement}.cypher`)));
    assert.deepEqual(
      missing.map((u) => `${u.file}: ${u.statement}`),
      [],
    );
  });

  it("a folder runs only its own area's statements, apart from the crossings listed with their reason", () => {
    const crossing = uses.filter((u) => u.statement.split('/')[0] !== u.runner);
    const unlisted = crossing.filter((u) => !(`${u.runner} -> ${u.statement.split('/')[0]}` in CROSSINGS));
    assert.deepEqual(
      unlisted.map((u) => `${u.file} runs ${u.statement}`),
      [],
      "call the owning area's store or service instead (or list the crossing with its reason)",
    );
  });

  it('every listed crossing is still in use (the list does not go stale)', () => {
    const seen = new Set(uses.map((u) => `${u.runner} -> ${u.statement.split('/')[0]}`));
    assert.deepEqual(
      Object.keys(CROSSINGS).filter((k) => !seen.has(k)),
      [],
    );
  });

  it('route files name no statements: a route declares and delegates to its area store or service', () => {
    const inRoutes = uses
      .filter((u) => /(^|\/)(routes|\w+Routes)\.ts$/.test(u.file))
      .map((u) => `${u.file} runs ${u.statement}`);
    assert.deepEqual(inRoutes, []);
  });
});
