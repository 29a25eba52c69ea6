import assert from 'node:assert/strict';
import {
  contentWords,
  exactIdentifiers,
  fuseRankings,
  hybridRankings,
  identifierTokens,
  wordCoverage,
  wordWeight,
  type RankedHit,
  type Ranking,
} from '../../src/search/hybrid.js';
import { RRF_K } from '../../src/search/fusion.js';

const hit = (id: string, text = id, score = 1): RankedHit<string> => ({ id, item: id, text, score });
const ranking = (source: Ranking<string>['source'], ...hits: RankedHit<string>[]): Ranking<string> => ({
  source,
  plane: 'memory',
  hits,
});

describe('Hybrid ranking (pure)', () => {
  it('an item found by words and by meaning outranks one found at the top of only one of them', () => {
    const fused = fuseRankings(
      [ranking('lexical', hit('words-only'), hit('both')), ranking('semantic', hit('meaning-only'), hit('both'))],
      'q',
      10,
    );
    assert.equal(fused[0]!.id, 'both');
    assert.equal(fused[0]!.match.score, Math.round((2 / (RRF_K + 2)) * 1e6) / 1e6);
  });

  it('says why each result is there: lexical rank, semantic rank and similarity', () => {
    const fused = fuseRankings(
      [ranking('lexical', hit('a'), hit('b')), ranking('semantic', hit('b', 'b', 0.871234), hit('c', 'c', 0.8))],
      'q',
      10,
    );
    const b = fused.find((f) => f.id === 'b')!;
    assert.deepEqual(
      { ...b.match, score: undefined },
      { lexical_rank: 2, semantic_rank: 1, similarity: 0.8712, graph_rank: null, exact: [], score: undefined },
    );
    assert.equal(fused.find((f) => f.id === 'a')!.match.semantic_rank, null);
    assert.equal(fused.find((f) => f.id === 'c')!.match.lexical_rank, null);
  });

  it('an exact identifier of the question is never buried under text that is only similar', () => {
    const fused = fuseRankings(
      [
        ranking(
          'lexical',
          hit('other', 'modem errors in general'),
          hit('key', 'ERR-4012 means the modem lost its link'),
        ),
        ranking('semantic', hit('near1', 'the modem failed', 0.9), hit('near2', 'acoustic link lost', 0.89)),
      ],
      'What does err-4012 mean?',
      3,
    );
    assert.equal(fused[0]!.id, 'key');
    assert.deepEqual(fused[0]!.match.exact, ['err-4012']);
  });

  it('the order is total and stable: equal scores fall to similarity, lexical rank, the plane asked first, then id', () => {
    const a = fuseRankings([ranking('lexical', hit('y')), ranking('semantic', hit('x', 'x', 0.8))], 'q', 10);
    // Same rank in each ranking: the one with a similarity first.
    assert.deepEqual(
      a.map((f) => f.id),
      ['x', 'y'],
    );
    // Same everything: the plane asked for first, then the id.
    const b = fuseRankings(
      [ranking('lexical', hit('b')), { ...ranking('lexical', hit('a')), plane: 'entity' }],
      'q',
      10,
    );
    assert.deepEqual(
      b.map((f) => f.id),
      ['b', 'a'],
    );
    const c = fuseRankings(
      [ranking('lexical', hit('b'), hit('a')), ranking('semantic', hit('a', 'a', 0.9), hit('b', 'b', 0.8))],
      'q',
      10,
    );
    assert.deepEqual(
      c.map((f) => f.id),
      ['a', 'b'],
      'equal fused scores: the more similar first',
    );
    const once = JSON.stringify(
      fuseRankings([ranking('lexical', hit('p'), hit('q')), ranking('semantic', hit('q'))], 'q', 5),
    );
    for (let i = 0; i < 5; i++)
      assert.equal(
        JSON.stringify(fuseRankings([ranking('lexical', hit('p'), hit('q')), ranking('semantic', hit('q'))], 'q', 5)),
        once,
      );
  });

  it('cuts the fused list at the limit and handles no rankings', () => {
    assert.equal(fuseRankings([ranking('lexical', hit('a'), hit('b'), hit('c'))], 'q', 2).length, 2);
    assert.deepEqual(fuseRankings([], 'q', 5), []);
  });

  it('identifiers are tokens with a digit, an underscore or an inner capital; words are not', () => {
    assert.deepEqual(identifierTokens('Why was HMS-2310 closed in v3.2.1 with NAV_STRICT_MODE and getUser?'), [
      'hms-2310',
      'v3.2.1',
      'nav_strict_mode',
      'getuser',
    ]);
    assert.deepEqual(identifierTokens('Who is our CEO and what is the Kestrel?'), []);
    assert.deepEqual(exactIdentifiers(['hms-2310'], 'Ticket hms-2310, closed.'), ['hms-2310']);
    assert.deepEqual(exactIdentifiers(['hms-2310'], 'Ticket HMS-23100 is another'), []);
    assert.deepEqual(exactIdentifiers(['kt-7741'], 'see /parts/KT-7741'), ['kt-7741']);
  });

  it('words are compared as the full-text index analyses them: split at hyphens and apostrophes, Porter stems', () => {
    assert.deepEqual(contentWords('What do the newcomers receive on day one?'), ['newcom', 'receiv', 'dai', 'on']);
    // The index found "fish-farm" for "fish farming": the hit holds both words, not none of them.
    const stems = contentWords('Did we lose fish farming customers?');
    assert.equal(wordCoverage(stems, 'Two fish-farm operators cancelled their leases.'), 0.5);
    assert.equal(wordCoverage(contentWords('salaries'), 'The salary is paid monthly'), 1);
    assert.equal(wordCoverage(contentWords("the company's"), 'A company of ten'), 1);
    assert.equal(wordCoverage(contentWords('paid'), 'It pays well'), 0, 'irregular forms share no stem');
    assert.equal(wordCoverage([], 'anything'), 1);
  });

  it('in hybrid, a word hit counts by the share of the question it holds, nothing below half; lexical and semantic modes keep one ranking', () => {
    const question = 'Which new starters receive a laptop today?';
    assert.equal(
      wordWeight(contentWords(question), 'a laptop for the trial'),
      0,
      'a quarter of the words is no evidence',
    );
    assert.equal(wordWeight(contentWords(question), 'new starters get a laptop'), 0.6);
    const words = [hit('w', 'the laptop trial'), hit('n', 'new starters get a laptop')];
    const near = [
      hit('m', 'newcomers are given a computer', 0.87),
      hit('w', 'the laptop trial', 0.8),
      hit('n', 'new starters get a laptop', 0.79),
    ];
    const hybrid = hybridRankings('memory', 'hybrid', question, words, near);
    assert.equal(hybrid.length, 2);
    assert.deepEqual(
      hybrid[0]!.hits.map((h) => h.weight),
      [0, 0.6],
    );
    assert.deepEqual(
      fuseRankings(hybrid, question, 3).map((r) => r.id),
      ['n', 'm', 'w'],
      'a hit on most of the words counts; one incidental word does not lift what meaning ranks second over its first',
    );
    assert.deepEqual(
      hybridRankings('memory', 'lexical', 'q', words, near).map((r) => r.source),
      ['lexical'],
    );
    assert.deepEqual(
      hybridRankings('memory', 'semantic', 'q', words, near).map((r) => r.source),
      ['semantic'],
    );
  });
});
