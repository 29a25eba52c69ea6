import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { CYPHER_DIR } from '../../src/db/cypher.js';
import { preflightCheckFiles, preflightChecks, runChecks, toFinding } from '../../src/preflight/checks.js';
import { newTenant } from '../support/api.js';
import { graph, planOperators } from './support.js';

describe('preflight check runner', () => {
  it('runs every .cypher file of cypher/preflight, each documented with its severity and how to run it by hand', () => {
    const files = fs
      .readdirSync(path.join(CYPHER_DIR, 'preflight'))
      .filter((f) => f.endsWith('.cypher'))
      .map((f) => f.replace(/\.cypher$/, ''))
      .sort();
    assert.deepEqual(
      preflightChecks().map((c) => c.name),
      files,
    );
    for (const name of [
      'duplicates',
      'shape_properties',
      'shape_relationships',
      'dangling',
      'contradictions',
      'cycles',
      'forgotten_references',
      'losses',
      'orphans',
    ]) {
      assert.ok(files.includes(name), name);
    }
    for (const check of preflightCheckFiles()) {
      assert.match(check.text, /^\/\/ Check: /, check.name);
      assert.match(check.text, /\(error|\(warning|\(info/, `${check.name} names its severity`);
      assert.match(check.text, /:param delta_id/, `${check.name} says how to run it by hand`);
    }
  });

  it('a new check file needs no TypeScript: its rows become canonical findings (ids sorted, nulls dropped, effect introduces unless it says)', async () => {
    const t = await newTenant(0);
    const staged = await t.post('/v1/memories', { content: 'Anything.', apply: false });
    const extra = {
      name: 'always_note',
      text: "MATCH (d:Delta {id: $delta_id, project_id: $project_id})-[:CREATED]->(n) RETURN 'always_note' AS check, 'info' AS severity, 'noted ' + n.id AS message, ['z', n.id, 'z'] AS node_ids, [] AS relationship_ids, {rule: 'note', b: 1, a: null, c: datetime($now)} AS evidence",
    };
    const findings = await graph().read((tx) =>
      runChecks(tx, staged.body.delta_id, t.projectId, '2026-01-02T03:04:05.000Z', [extra]),
    );
    assert.deepEqual(findings, [
      {
        check: 'always_note',
        severity: 'info',
        effect: 'introduces',
        message: `noted ${staged.body.id}`,
        node_ids: [staged.body.id, 'z'].sort(),
        relationship_ids: [],
        evidence: { b: 1, c: '2026-01-02T03:04:05.000Z', rule: 'note' },
      },
    ]);
    assert.deepEqual(Object.keys(findings[0]!.evidence), ['b', 'c', 'rule']);
  });

  it('a row with another check name, an unknown severity, an unknown effect or no evidence rule is refused, naming the file', () => {
    assert.throws(
      () =>
        toFinding('mine', {
          check: 'other',
          severity: 'error',
          message: 'm',
          node_ids: [],
          relationship_ids: [],
          evidence: {},
        }),
      /cypher\/preflight\/mine\.cypher/,
    );
    assert.throws(
      () =>
        toFinding('mine', {
          check: 'mine',
          severity: 'fatal',
          message: 'm',
          node_ids: [],
          relationship_ids: [],
          evidence: {},
        }),
      /severity/,
    );
    assert.throws(
      () =>
        toFinding('mine', {
          check: 'mine',
          severity: 'warning',
          effect: 'causes',
          message: 'm',
          node_ids: [],
          relationship_ids: [],
          evidence: {},
        }),
      /cypher\/preflight\/mine\.cypher returned effect "causes"/,
    );
    // The published finding always names its rule (evidence.rule is required).
    const touching = (evidence: Record<string, string>) => ({
      check: 'mine',
      severity: 'warning',
      effect: 'touches',
      message: 'm',
      node_ids: [],
      relationship_ids: [],
      evidence,
    });
    assert.throws(
      () => toFinding('mine', touching({})),
      /cypher\/preflight\/mine\.cypher returned evidence without its rule/,
    );
    assert.equal(toFinding('mine', touching({ rule: 'mine_rule' })).effect, 'touches');
  });
});

describe('preflight check plans', () => {
  const operators = (text: string) =>
    planOperators(text, { delta_id: 'none', project_id: 'none', now: new Date().toISOString() });

  it('every check starts from the delta: no plan scans a label, a relationship type or an index', async () => {
    const t = await newTenant(0);
    await t.post('/v1/memories', {
      content: 'Some data so the statistics are not empty.',
      subject: 'Stats',
      object: 'Counts',
      predicate: 'has',
    });
    for (const check of preflightCheckFiles()) {
      const ops = await operators(check.text);
      assert.ok(
        ops.some((o) => /NodeUniqueIndexSeek/.test(o)),
        `${check.name} seeks the delta by id: ${ops.join(', ')}`,
      );
      assert.deepEqual(
        ops.filter((o) => /Scan/.test(o)),
        [],
        `${check.name}: ${ops.join(', ')}`,
      );
    }
  });
});
