import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { briefingHashes, canonicalJson, normalizeQuery, sha256Hex } from '../../src/briefing/hashes.js';
import { memory } from './fixtures.js';

const HEX64 = /^[0-9a-f]{64}$/;
const evidence = [memory('a', 'decision', 'Use Neo4j.'), memory('b', 'fact', 'Temporal is on 7233.')];

describe('briefing hashes', () => {
  it('canonical JSON sorts keys at every depth, keeps array order and has no whitespace', () => {
    assert.equal(
      canonicalJson({ b: 1, a: { d: [3, { z: true, y: null }], c: 'x' } }),
      '{"a":{"c":"x","d":[3,{"y":null,"z":true}]},"b":1}',
    );
  });

  it('canonical JSON leaves out undefined values and refuses non-finite numbers', () => {
    assert.equal(canonicalJson({ a: undefined, b: 'é' }), '{"b":"é"}');
    assert.throws(() => canonicalJson({ n: Number.NaN }), TypeError);
  });

  it('sha256Hex hashes the UTF-8 bytes', () => {
    assert.equal(
      sha256Hex('é'),
      createHash('sha256')
        .update(Buffer.from([0xc3, 0xa9]))
        .digest('hex'),
    );
  });

  it('every digest is 64 lowercase hex characters', () => {
    for (const digest of Object.values(briefingHashes('Q', evidence, 12))) assert.match(digest, HEX64);
  });

  it('follows the documented definitions exactly', () => {
    const hashes = briefingHashes('  How   DO we  ', evidence, 5);
    assert.equal(
      hashes.structural,
      sha256Hex(
        '{"output_type":"SituationBriefing","purpose":"operational-briefing","selected":[{"id":"a","kind":"decision"},{"id":"b","kind":"fact"}]}',
      ),
    );
    assert.equal(
      hashes.operational,
      sha256Hex(
        '{"max_evidence":5,"output_type":"SituationBriefing","purpose":"operational-briefing","query":"how do we"}',
      ),
    );
    assert.equal(
      hashes.denotative,
      sha256Hex('{"selected":[{"content":"Use Neo4j.","id":"a"},{"content":"Temporal is on 7233.","id":"b"}]}'),
    );
  });

  it('the same query and evidence give the same digests', () => {
    assert.deepEqual(
      briefingHashes('Q', evidence, 12),
      briefingHashes(
        'Q',
        evidence.map((m) => ({ ...m })),
        12,
      ),
    );
  });

  it('a changed content changes the denotative digest only', () => {
    const before = briefingHashes('Q', evidence, 12);
    const after = briefingHashes('Q', [evidence[0]!, { ...evidence[1]!, content: 'Temporal is on 7234.' }], 12);
    assert.notEqual(after.denotative, before.denotative);
    assert.equal(after.structural, before.structural);
    assert.equal(after.operational, before.operational);
  });

  it('a different query changes the operational digest only; spacing and case do not count', () => {
    const before = briefingHashes('deploy plan', evidence, 12);
    const other = briefingHashes('rollback plan', evidence, 12);
    assert.notEqual(other.operational, before.operational);
    assert.equal(other.structural, before.structural);
    assert.equal(other.denotative, before.denotative);
    assert.equal(briefingHashes('  Deploy\tPLAN ', evidence, 12).operational, before.operational);
    assert.equal(normalizeQuery('  Deploy\n  PLAN '), 'deploy plan');
  });

  it('a different evidence limit changes the operational digest', () => {
    assert.notEqual(briefingHashes('Q', evidence, 12).operational, briefingHashes('Q', evidence, 6).operational);
  });

  it('a changed kind or order changes the structural digest', () => {
    const before = briefingHashes('Q', evidence, 12).structural;
    assert.notEqual(briefingHashes('Q', [...evidence].reverse(), 12).structural, before);
    assert.notEqual(briefingHashes('Q', [{ ...evidence[0]!, kind: 'lesson' }, evidence[1]!], 12).structural, before);
  });
});
