import assert from 'node:assert/strict';
import { PredicatePhrases, predicateKey } from '../../src/memories/facts.js';

// Types like the general shape's (cypher/schema/110_seed_general_shape.cypher), with patterns of their own here.
const general = [
  { type: 'WORKS_FOR', patterns: ['works for', 'employed by', 'joined'], builtin: true, one_at_a_time: true },
  { type: 'LIVES_IN', patterns: ['lives in', 'resides in'], builtin: true, one_at_a_time: true },
  { type: 'SPEAKS', patterns: ['speaks'], builtin: true, one_at_a_time: false },
  { type: 'LOCATED_IN', patterns: ['based in', 'located in', 'headquartered in'], builtin: true, one_at_a_time: true },
  { type: 'CREATED', patterns: ['created'], builtin: true, one_at_a_time: false },
];

describe("a fact's predicate takes the type a visible shape declares for its phrase (docs/facts.md)", () => {
  const phrases = new PredicatePhrases(general);

  it('phrases of one relation, in any verb form or after an auxiliary, name its declared type', () => {
    for (const predicate of [
      'works for',
      'works at',
      'worked at',
      'is employed by',
      'was hired by',
      'joined',
      'Works  At',
    ])
      assert.equal(phrases.match(predicate), 'WORKS_FOR', predicate);
    assert.equal(phrases.match('resides in'), 'LIVES_IN');
    assert.equal(phrases.match('is headquartered in'), 'LOCATED_IN');
    assert.equal(phrases.match('wrote'), 'CREATED', 'a bare verb of the lexicon, for a type held many at a time');
    const reports = new PredicatePhrases([{ type: 'REPORTS_TO', patterns: [], builtin: false, one_at_a_time: true }]);
    assert.equal(reports.match('reported to'), 'REPORTS_TO', "a type's name read as words, in another verb form");
  });

  it('a phrase no shape gives, an active verb whose subject is the target, an uncertain verb, or a bare verb for a type held one at a time names no type', () => {
    assert.equal(phrases.match('likes'), null);
    assert.equal(
      phrases.match('hired'),
      null,
      '"Acme hired Bo" has the employer as subject: the edge would point backwards',
    );
    assert.equal(phrases.match('employs'), null);
    assert.equal(phrases.match('moved to'), null, 'the lexicon is unsure of "move to"');
    assert.equal(phrases.match('leads'), null, '"Cy leads the migration" is no change of employer');
  });

  it("a project shape's own pattern wins over the built-in verbs; two types for one phrase in a tier name none", () => {
    const custom = new PredicatePhrases([
      ...general,
      { type: 'CONTRACTS_FOR', patterns: ['works at'], builtin: false, one_at_a_time: false },
    ]);
    assert.equal(custom.match('works at'), 'CONTRACTS_FOR');
    assert.equal(custom.match('works for'), 'WORKS_FOR');
    const clash = new PredicatePhrases([
      ...general,
      { type: 'CONTRACTS_FOR', patterns: ['consults for'], builtin: false, one_at_a_time: false },
      { type: 'ADVISES', patterns: ['consults for'], builtin: false, one_at_a_time: false },
    ]);
    assert.equal(clash.match('consults for'), null);
  });

  it('the words matched are normalized, and an auxiliary alone is kept', () => {
    assert.equal(predicateKey('  Is   Employed By '), 'employed by');
    assert.equal(predicateKey('has'), 'has');
  });
});
