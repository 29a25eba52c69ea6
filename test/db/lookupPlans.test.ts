// The lookups by a property a composite index starts with seek that index: the statement names the
// index (USING INDEX) and gives its second property a predicate (IS NOT NULL), which a composite range
// index needs before it can seek at all. Without them a node was found by a scan of its whole label
// (every webhook delivery, sync run or sync page of every project) or of every credit entry with a
// loop, however many there were (issue 27). Planned (EXPLAIN, nothing runs) by the real Neo4j.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { cypher } from '../../src/db/cypher.js';
import { useRawDriver } from '../support/harness.js';
import { BUILTIN_SHAPE_ID_LIST } from '../../src/shapes/types.js';
import { EDGE_WALK } from '../../src/graph/edgeWalk.js';

interface ProfileNode {
  operatorType?: string;
  dbHits?: number;
  children: ProfileNode[];
}

/** A profile's operators with their hits, one per line (for the message of a failed bound). */
const operators = (p: ProfileNode, depth = 0): string =>
  [
    `${'  '.repeat(depth)}${p.operatorType ?? '?'} ${p.dbHits ?? 0}`,
    ...p.children.map((c) => operators(c, depth + 1)),
  ].join('\n');

/** The database hits of a profiled statement, all operators together. */
const dbHits = (p: ProfileNode): number => (p.dbHits ?? 0) + p.children.reduce((n, c) => n + dbHits(c), 0);

interface PlanNode {
  operatorType: string;
  arguments: Record<string, unknown>;
  children: PlanNode[];
}

/** Each operator of a plan that finds nodes, with what it reads. */
function lookups(plan: PlanNode): string[] {
  const own = /Seek|Scan/.test(plan.operatorType)
    ? [`${plan.operatorType.replace(/@.*/, '')} ${String(plan.arguments.Details ?? '')}`]
    : [];
  return [...own, ...plan.children.flatMap(lookups)];
}

const NOW = '2026-01-01T00:00:00Z';
/** What both walks by meaning read (memories/walk_from_terms, memories/candidate_links), beside their own. */
const WALK = {
  project_id: 'p',
  now: NOW,
  valid_at: NOW,
  kinds: null,
  episode: null,
  links: true,
  terms: [],
  rare_terms: 3,
  max_degree: 500,
  candidates: 60,
  exact_up_to: 500,
  vector: [1, 0, 0],
  model: 'm',
};
const STATEMENTS: Record<string, Record<string, unknown>> = {
  'webhooks/deliveries': {
    endpoint_id: 'e',
    project_id: 'p',
    after_created_at: null,
    after_id: null,
    limit: 10,
  },
  'webhooks/delete': { id: 'w', project_id: 'p' },
  // Unhinted, a deletion's changes were found by a scan of every `old.delta_id` entry of the database.
  'memories/history': { id: 'm', project_id: 'p' },
  'entities/history': { id: 'e', project_id: 'p' },
  'connections/sync_list': { connection_id: 'c', project_id: 'p', limit: 10 },
  'connections/page_drop': { sync_id: 's', page_no: null },
  'credits/settle': {
    organization_id: 'o',
    token: 't',
    loop_id: 'l',
    reserved: 5,
    spent: 1,
    entry_id: 'x',
    reason: 'r',
  },
  'bridges/get': { id: 'b', project_id: 'p' },
  // The shapes a project sees: the built-in ones by id, its own by its (project_id, name) index, not a scan of
  // every project's shapes filtered by builtin OR project.
  'shapes/list': {
    project_id: 'p',
    builtin_ids: BUILTIN_SHAPE_ID_LIST,
    name: null,
    status: null,
    latest: true,
    after_name: null,
    after_version: null,
    after_id: null,
    limit: 10,
  },
  'shapes/name_taken': { name: 'n', project_id: 'p', builtin_ids: BUILTIN_SHAPE_ID_LIST },
  'ontology/visible_shapes': { project_id: 'p', builtin_ids: BUILTIN_SHAPE_ID_LIST },
  // A project's slices, saved packs and bridges: by their own (project_id, ...) index, not a scan of every
  // project's nor a seek of every node of the project in the Knowledge index.
  'slices/list': { project_id: 'p', name: null, limit: 10, after_name: null, after_version: null, after_id: null },
  'packs/list': { project_id: 'p', limit: 10, after_created: null, after_id: null },
  'bridges/list': { project_id: 'p', name: null, after_created_at: null, after_id: null, limit: 10 },
  // A slice's subject by id or by name: each by its own index.
  'context/subject': { project_id: 'p', id: null, normalized_name: 'n', type: null },
  'slices/name_taken': { project_id: 'p', name: 'n' },
  'slices/newer_version': { project_id: 'p', name: 'n', version: 1 },
  'connections/list': { project_id: 'p', limit: 10 },
  // A project's loops: by their (project_id, created_at) index (cypher/schema/190_loop_project.cypher).
  'loops/list': { project_id: 'p', status: null, limit: 10, after_created_at: null, after_id: null },
  // Hot reads of every recall: from the memories found by id, never from every node of the project.
  'memories/answered': { ids: ['a', 'b'], known: [], project_id: 'p' },
  'search/answered': {
    ids: ['a', 'b'],
    results: ['a', 'b'],
    whole: ['a'],
    project_id: 'p',
    per_node: 5,
    valid_at: NOW,
  },
  'documents/resolve_collections': { project_id: 'p', names: ['a'] },
  // Every request's standing check, with and without an organization key's project: a null project must not
  // plan a scan of every project (Neo4j plans by the parameters' types).
  'auth/key_standing': { id: 'k', project_id: null },
  // A governed write carries the request's standing check in its own statement (Graph.writeCarrying): the same
  // seeks as auth/key_standing's, beside the delta's project.
  'deltas/create': {
    project_id: 'p',
    delta_id: 'd',
    origin: 'api',
    summary: 's',
    key_id: 'k',
    request_id: 'r',
    change_count: 1,
    applied: true,
    embed: false,
    nodes: [{ id: 'n', change_id: 'c', labels: ['Memory'], props: { content: 'x' }, identity_key: null, seq: 0 }],
    shared: {},
    standing: { id: 'k', project_id: null },
    alone: true,
  },
  // A read by id carries the request's standing check in its own statement (src/db/graph.ts, carriesStanding):
  // the memory by its id, and auth/key_standing's seeks.
  'memories/get': { id: 'm', project_id: 'p', standing: { id: 'k', project_id: 'p' } },
  // A project's facts, when one names a relationship type the database does not know yet: by their
  // (project_id, predicate) index (cypher/schema/200_memory_predicate.cypher), not every memory of the project.
  'memories/fact_predicates': { project_id: 'p' },
  // The hops by meaning compare a small project's terms exactly (memories/held_terms): found by the terms' own
  // (project_id, key) index, not a scan of every term of every project (on 7 Dec 2026 it was).
  'memories/walk_near': { ...WALK, walk_terms: 20, walk_spread: 0.09, k: 20, min_similarity: 0.75 },
  // A small project's terms, held in process for its walks (src/memories/termVectors.ts), and the walk's check that
  // they are still the project's: both by the (project_id, key) index, as walk_near's fragment.
  'memories/term_vectors': { project_id: 'p', model: 'm', exact_up_to: 500 },
  'memories/walk_held': { ...WALK, walk: { held: ['violin'], near: [{ key: 'violin', weight: 0.09 }] } },
  'graph/neighbourhood': { id: 'n', project_id: 'p', include_pending: false, valid_at: NOW, limit: 10, depth: 2 },
};

describe('lookups by a composite index or an id seek their index', function () {
  this.timeout(60_000);
  const driver = useRawDriver();

  /** The labels of the nodes the seeds below make, by which a seeded project's nodes are deleted. */
  const SEEDED = ['Knowledge', 'Delta', 'Loop', 'WebhookDelivery', 'Sync'];

  /** Runs `work` on a new project that `seed` (Cypher with $project) fills, then deletes the project's nodes. */
  async function inSeededProject(
    seed: string,
    params: Record<string, unknown>,
    work: (project: string) => Promise<void>,
  ): Promise<void> {
    const project = `p-${crypto.randomUUID()}`;
    await driver().executeQuery(seed, { project, ...params });
    try {
      await work(project);
    } finally {
      await driver().executeQuery('UNWIND $labels AS label MATCH (n:$(label) {project_id: $project}) DETACH DELETE n', {
        project,
        labels: SEEDED,
      });
    }
  }

  for (const [name, params] of Object.entries(STATEMENTS)) {
    it(`${name} finds its nodes by index seeks only`, async () => {
      const r = await driver().executeQuery(`EXPLAIN ${cypher(name)}`, { now: NOW, ...params });
      const found = lookups(r.summary.plan as unknown as PlanNode);
      assert.ok(found.length > 0, `${name}: no lookup in the plan`);
      const scans = found.filter((l) => !/Seek/.test(l.split(' ')[0]!));
      assert.deepEqual(scans, [], `${name} scans: ${scans.join('; ')}`);
      // A seek of the Knowledge label's project index reads every node of the project (its memories too).
      const wholeProject = found.filter((l) => /:Knowledge\(project_id\)/.test(l));
      assert.deepEqual(wholeProject, [], `${name} seeks every node of the project: ${wholeProject.join('; ')}`);
    });
  }

  it("a slice's subject is found by its index, however many memories its project holds", async () => {
    const subject = crypto.randomUUID();
    await inSeededProject(
      `UNWIND range(1, 2000) AS i
       CREATE (:Knowledge:Memory {id: $project + '-' + i, project_id: $project, name: 'm' + i, created_at: datetime()})
       WITH count(*) AS made
       CREATE (:Knowledge:Entity:Person {id: $subject, project_id: $project, name: 'Ada Lovelace',
                                         normalized_name: 'ada lovelace', created_at: datetime()})`,
      { subject },
      async (project) => {
        for (const params of [
          { id: null, normalized_name: 'ada lovelace', type: 'Person' },
          { id: subject, normalized_name: null, type: null },
        ]) {
          const r = await driver().executeQuery(`PROFILE ${cypher('context/subject')}`, {
            project_id: project,
            ...params,
          });
          assert.equal(r.records[0]?.get('id'), subject);
          const hits = dbHits(r.summary.profile as unknown as ProfileNode);
          assert.ok(hits < 200, `context/subject: ${hits} database hits for one entity beside 2,000 memories`);
        }
      },
    );
  });

  // Recall and context compiles without a query sorted every memory, chunk or entity of the project by created_at
  // (a Top over all of them: 1.3M database hits at 330,000 memories); read in the index's order, they stop at the limit.
  it('recall and context compiles without a query read the newest items, not every item of the project', async () => {
    await inSeededProject(
      `CREATE (d:Knowledge:Document {id: $project + '-d', project_id: $project, title: 'd', created_at: datetime()})
       WITH d
       UNWIND range(1000, 2999) AS i
       WITH d, i, datetime('2026-01-01T00:00:00Z') + duration({seconds: i}) AS at
       CREATE (:Knowledge:Memory {id: $project + '-m-' + i, project_id: $project, content: 'm' + i, kind: 'fact',
                                  created_at: at})
       CREATE (:Knowledge:Entity:Person {id: $project + '-e-' + i, project_id: $project, name: 'e' + i, created_at: at})
       CREATE (d)-[:HAS_CHUNK]->(:Knowledge:Chunk {id: $project + '-c-' + i, project_id: $project, text: 'c' + i,
                                                   index: i, created_at: at})`,
      {},
      async (project) => {
        const base = {
          project_id: project,
          as_of: null,
          now: NOW,
          valid_at: NOW,
          unknown: [],
          changed: [],
          limit: 11,
          candidates: 11,
          lucene: null,
          from: null,
          to: null,
          window_field: 'created_at',
          kinds: null,
          episode: null,
          document_ids: null,
          tags: null,
          types: null,
          shape_ids: null,
        };
        const newest = (kind: string) => Array.from({ length: 11 }, (_, i) => `${project}-${kind}-${2999 - i}`);
        for (const [name, kind, idOf] of [
          ['memories/recent', 'm', (r: Record<string, unknown>) => (r.memory as { id: string }).id],
          ['context/memories_recent', 'm', (r: Record<string, unknown>) => r.id],
          ['context/entities_recent', 'e', (r: Record<string, unknown>) => r.id],
          ['context/chunks_recent', 'c', (r: Record<string, unknown>) => r.id],
        ] as const) {
          for (const kinds of [null, ['fact']]) {
            const r = await driver().executeQuery(`PROFILE ${cypher(name)}`, { ...base, kinds });
            const hits = dbHits(r.summary.profile as unknown as ProfileNode);
            assert.ok(hits < 400, `${name}: ${hits} database hits for the 11 newest of 2,000`);
            assert.deepEqual(
              r.records.map((rec) => idOf(rec.toObject())),
              newest(kind),
              name,
            );
          }
        }
      },
    );
  });

  // The lists newest first sorted every record of the project (or endpoint, or connection) for each page: their
  // ORDER BY did not name the index's first property, so the index's order was not used (a Top over 50,000 deltas
  // for a page of 21); now a page reads its records and the cursor's bound is sought, not filtered.
  it('every newest-first list reads its page, not every record of its project', async () => {
    await inSeededProject(
      `UNWIND range(1000, 2999) AS i
       WITH i, datetime('2026-01-01T00:00:00Z') + duration({seconds: i}) AS at
       CREATE (:Delta {id: $project + '-delta-' + i, project_id: $project, status: 'applied', origin: 'memory',
                       created_at: at})
       CREATE (:Loop {id: $project + '-loop-' + i, project_id: $project, status: 'completed', created_at: at})
       CREATE (:Knowledge:Bridge {id: $project + '-bridge-' + i, project_id: $project, name: 'b', created_at: at})
       CREATE (:Knowledge:ContextPack {id: $project + '-pack-' + i, project_id: $project, created_at: at})
       CREATE (:Knowledge:Document {id: $project + '-document-' + i, project_id: $project, title: 'd', created_at: at})
       CREATE (:WebhookDelivery {id: $project + '-delivery-' + i, project_id: $project, endpoint_id: $project + '-w',
                                 created_at: toString(at)})
       CREATE (:Sync {id: $project + '-sync-' + i, project_id: $project, connection_id: $project + '-c',
                      created_at: at})`,
      {},
      async (project) => {
        const lists = [
          ['deltas/list', 'delta', { status: null, origin: null }],
          ['loops/list', 'loop', { status: null }],
          ['bridges/list', 'bridge', { name: null }],
          ['packs/list', 'pack', {}],
          ['documents/list', 'document', {}],
          ['webhooks/deliveries', 'delivery', { endpoint_id: `${project}-w` }],
          ['connections/sync_list', 'sync', { connection_id: `${project}-c` }],
        ] as const;
        const at = (i: number) => new Date(Date.parse('2026-01-01T00:00:00Z') + i * 1000).toISOString();
        for (const [name, key, params] of lists) {
          const ids = (from: number) => Array.from({ length: 11 }, (_, k) => `${project}-${key}-${from - k}`);
          // The first page, then (sync runs have no cursor) the page after 2989.
          for (const after of name === 'connections/sync_list' ? [null] : [null, 2989]) {
            // Deliveries keep created_at as the text Cypher gives the datetime (no milliseconds here).
            const cursor =
              after === null ? null : name === 'webhooks/deliveries' ? at(after).replace('.000Z', 'Z') : at(after);
            const r = await driver().executeQuery(`PROFILE ${cypher(name)}`, {
              project_id: project,
              ...params,
              after_created_at: cursor,
              after_created: cursor,
              after_id: after === null ? null : `${project}-${key}-${after}`,
              limit: 11,
            });
            const hits = dbHits(r.summary.profile as unknown as ProfileNode);
            assert.ok(hits < 300, `${name}: ${hits} database hits for a page of 11 of 2,000`);
            const shown = r.records.map((rec) => (rec.get(key) as { id: string }).id);
            assert.deepEqual(shown, ids(after === null ? 2999 : after - 1), name);
          }
        }
      },
    );
  });

  // A page of the graph's nodes is read in the (project_id, id) index's order and stops at its limit: before,
  // every node of the project was read, filtered and sorted for each page (30,001 index hits and 120,000
  // property reads for a page of 50 beside 30,000 memories).
  it("a page of a project's nodes reads that page, not every node of the project", async () => {
    await inSeededProject(
      `UNWIND range(1000, 2999) AS i
       CREATE (:Knowledge:Memory {id: $project + '-m-' + i, project_id: $project, text: 'm' + i,
                                  created_at: datetime()})`,
      {},
      async (project) => {
        const page = async (afterId: string, includePending: boolean) => {
          const r = await driver().executeQuery(`PROFILE ${cypher('graph/nodes')}`, {
            project_id: project,
            labels: ['Knowledge', 'Memory'],
            property: null,
            value: null,
            include_pending: includePending,
            valid_at: NOW,
            after_id: afterId,
            limit: 11,
          });
          const hits = dbHits(r.summary.profile as unknown as ProfileNode);
          assert.ok(hits < 200, `graph/nodes: ${hits} database hits for a page of 11 beside 2,000 memories`);
          return r.records.map((rec) => (rec.get('props') as { id: string }).id);
        };
        const ids = (from: number) => Array.from({ length: 11 }, (_, i) => `${project}-m-${from + i}`);
        for (const includePending of [false, true]) {
          assert.deepEqual(await page('', includePending), ids(1000));
          assert.deepEqual(await page(`${project}-m-1010`, includePending), ids(1011));
        }
      },
    );
  });

  // Ordered by the relationship's id alone, a page read every relationship of the database (an all-relationships
  // scan: 800,000 hits at 50,000 relationships); by source node, then id, it reads until it is full.
  it("a page of a project's edges reads that page, not every relationship of the database", async () => {
    await inSeededProject(
      `UNWIND range(1000, 2999) AS i
       CREATE (:Knowledge:Entity:Person {id: $project + '-e-' + i, project_id: $project, name: 'p' + i,
                                         created_at: datetime()})
       WITH count(*) AS made
       UNWIND range(1000, 2999) AS i
       UNWIND [1, 2, 3] AS d
       WITH i, i + d AS j WHERE j <= 2999
       MATCH (a:Knowledge {id: $project + '-e-' + i}), (b:Knowledge {id: $project + '-e-' + j})
       CREATE (a)-[:KNOWS {id: $project + '-r-' + i + '-' + j, project_id: $project}]->(b)`,
      {},
      async (project) => {
        const page = async (after: string[], includePending: boolean, types: string[] | null) => {
          const r = await driver().executeQuery(`PROFILE ${cypher('graph/edges')}`, {
            project_id: project,
            types,
            include_pending: includePending,
            valid_at: NOW,
            after_source: after[0] === undefined ? '' : `${project}-e-${after[0]}`,
            after_id: after[0] === undefined ? '' : `${project}-r-${after[0]}-${after[1]}`,
            limit: 11,
            walk: EDGE_WALK,
          });
          const profile = r.summary.profile as unknown as ProfileNode;
          const hits = dbHits(profile);
          assert.ok(
            hits < 1500,
            `graph/edges: ${hits} database hits for a page of 11 beside 6,000 relationships\n${operators(profile)}`,
          );
          const end = (id: unknown) => String(id).slice(`${project}-e-`.length);
          return r.records.map((rec) => `${end(rec.get('source'))}-${end(rec.get('target'))}`);
        };
        // Three relationships out of each node, to the next three: the pages cut through a node's relationships.
        const all = Array.from({ length: 2000 }, (_, k) => [1, 2, 3].map((d) => `${1000 + k}-${1000 + k + d}`)).flat();
        for (const includePending of [false, true])
          for (const types of [null, ['KNOWS']]) {
            assert.deepEqual(await page([], includePending, types), all.slice(0, 11));
            assert.deepEqual(await page(['1003', '1005'], includePending, types), all.slice(11, 22));
          }
      },
    );
  });

  // Before a page's walk was bounded, a project of many nodes and few relationships read every node it had
  // until the page filled: 15,000 here for the first page.
  it('a page of edges walks at most EDGE_WALK nodes, and says where the next walk starts', async () => {
    const nodes = 3 * EDGE_WALK;
    await inSeededProject(
      `UNWIND range(10000, 10000 + $nodes - 1) AS i
       CREATE (:Knowledge:Memory {id: $project + '-a-' + i, project_id: $project, content: 'm' + i,
                                  created_at: datetime()})
       WITH count(*) AS made
       CREATE (:Knowledge:Entity:Person {id: $project + '-z-1', project_id: $project, name: 'Ada'})
              -[:KNOWS {id: $project + '-r-1', project_id: $project}]->
              (:Knowledge:Entity:Person {id: $project + '-z-2', project_id: $project, name: 'Grace'})`,
      { nodes },
      async (project) => {
        const profiled = async (name: string, afterSource: string) => {
          const r = await driver().executeQuery(`PROFILE ${cypher(name)}`, {
            project_id: project,
            types: null,
            include_pending: false,
            valid_at: NOW,
            after_source: afterSource,
            after_id: '',
            limit: 11,
            walk: EDGE_WALK,
          });
          const profile = r.summary.profile as unknown as ProfileNode;
          const hits = dbHits(profile);
          // At most, per node walked: three hits for its index entry in the walk (the seek may read the id back,
          // once or twice: profiles showed 10,002 and, with this file run alone on a fresh database, 15,002 for
          // 5,001 entries), one for the page's seek and one for its expand; plus the entry past the walk. Reading
          // the whole project instead (15,002 nodes, two or three hits each in the seek alone) would be more.
          const bound = 5 * (EDGE_WALK + 1);
          assert.ok(hits <= bound, `${name}: ${hits} database hits for one walk\n${operators(profile)}`);
          return r.records;
        };
        // graph/edges stops at the walk's end; graph/edges_walk, which reads a short page again, says where it is.
        const page = async (afterSource: string) => {
          const edges = (await profiled('graph/edges', afterSource)).map((rec) => String(rec.get('id')));
          const walked = await profiled('graph/edges_walk', afterSource);
          const again = walked.filter((rec) => rec.get('id') !== null).map((rec) => String(rec.get('id')));
          assert.deepEqual(again, edges);
          return { edges, cutAt: walked[0]?.get('cut_at') as string | null };
        };
        const at = (i: number) => `${project}-a-${10000 + i}`;
        assert.deepEqual(await page(''), { edges: [], cutAt: at(EDGE_WALK) });
        assert.deepEqual(await page(at(EDGE_WALK)), { edges: [], cutAt: at(2 * EDGE_WALK) });
        assert.deepEqual(await page(at(2 * EDGE_WALK)), { edges: [], cutAt: `${project}-z-1` });
        assert.deepEqual(await page(`${project}-z-1`), { edges: [`${project}-r-1`], cutAt: null });
      },
    );
  });

  // Unhinted, graph/counts was planned as a scan of every relationship of the database and shapes/usage as a
  // scan of every Knowledge node of it, where the statistics made those cheap (the dev instance: 330,000
  // memories, 124 relationships). Here the planner seeks either way; the hints keep it so whatever the
  // statistics, and this bounds what both read and checks what they count.
  it("a project's counts and a shape's usage cost what their project holds, beside a larger one", async () => {
    const other = `p-${crypto.randomUUID()}`;
    const seed = `UNWIND range(1000, 999 + $n) AS i
       CREATE (:Knowledge:Entity:Person {id: $p + '-e-' + i, project_id: $p, name: 'p' + i, shape_id: 's-1'})
       WITH count(*) AS made
       UNWIND range(1000, 998 + $n) AS i
       MATCH (a:Knowledge {id: $p + '-e-' + i}), (b:Knowledge {id: $p + '-e-' + (i + 1)})
       CREATE (a)-[:KNOWS {id: $p + '-r-' + i, project_id: $p}]->(b)`;
    await driver().executeQuery(seed, { p: other, n: 4000 });
    try {
      await inSeededProject(seed.replaceAll('$p', '$project'), { n: 5 }, async (project) => {
        for (const [name, params] of [
          ['graph/counts', { include_pending: false }],
          ['graph/counts', { include_pending: true }],
          ['shapes/usage', { id: 's-1' }],
        ] as const) {
          const r = await driver().executeQuery(`PROFILE ${cypher(name)}`, { project_id: project, ...params });
          const profile = r.summary.profile as unknown as ProfileNode;
          const hits = dbHits(profile);
          assert.ok(hits < 400, `${name}: ${hits} database hits for a project of 5 nodes\n${operators(profile)}`);
          const row = r.records[0]!;
          if (name === 'graph/counts') {
            assert.equal(Number(row.get('node_count')), 5);
            assert.equal(Number(row.get('relationship_count')), 4);
          } else assert.equal(Number(row.get('node_count')), 5);
        }
      });
    } finally {
      await driver().executeQuery('MATCH (n:Knowledge {project_id: $p}) DETACH DELETE n', { p: other });
    }
  });

  // A COLLECT subquery's plan is not in the summary's plan tree, so these are profiled on a graph instead:
  // 500 sync runs of another connection must not be read to answer for this one (25,025 hits before, 25 after).
  it("a connection's sync runs are read through their index, whatever other connections have run", async () => {
    const project = `p-${crypto.randomUUID()}`;
    const [connection, other] = [crypto.randomUUID(), crypto.randomUUID()];
    await driver().executeQuery(
      `UNWIND range(1, 500) AS i
       CREATE (:Sync {id: $other + '-' + i, connection_id: $other, project_id: $project, created_at: datetime(),
                      status: 'completed'})`,
      { other, project },
    );
    await driver().executeQuery(
      `CREATE (:Connection:Knowledge {id: $connection, project_id: $project, created_at: datetime()})
       CREATE (:Sync {id: $connection + '-1', connection_id: $connection, project_id: $project, created_at: datetime(),
                      status: 'completed'})`,
      { connection, project },
    );
    try {
      const reads: [string, Record<string, unknown>][] = [
        ['connections/get', { id: connection, project_id: project }],
        ['connections/sync_latest', { connection_id: connection }],
        ['connections/list', { project_id: project, after_created_at: null, after_id: null, limit: 10 }],
      ];
      for (const [name, params] of reads) {
        const r = await driver().executeQuery(`PROFILE ${cypher(name)}`, params);
        assert.ok(r.records.length > 0, `${name}: no row`);
        const hits = dbHits(r.summary.profile as unknown as ProfileNode);
        assert.ok(hits < 500, `${name}: ${hits} database hits for one connection with one sync run`);
      }
    } finally {
      await driver().executeQuery('MATCH (n:Sync|Connection) WHERE n.project_id = $project DETACH DELETE n', {
        project,
      });
    }
  });
});
