import assert from 'node:assert/strict';
import { BuiltinExtractor } from '../../src/extractor/builtin.js';
import { scoreExtraction } from '../../src/extractor/quality.js';
import type { ExtractionResult } from '../../src/extractor/types.js';
import { generalShape as fixtureShape, paragraph } from './fixtures.js';
import { generalShape } from './eval/shape.js';

const extractor = new BuiltinExtractor();
const entity = (type: string, name: string, properties: Record<string, string> = { name }) => ({
  key: `${type}:${name.toLowerCase()}`,
  type,
  name,
  normalized_name: name.toLowerCase(),
  properties,
  mentions: [],
  confidence: 0.9,
});

describe('extraction quality', () => {
  it('is the documented mean of conformance, sentence yield, name coverage, relation density and agreement', () => {
    const result: ExtractionResult = {
      entities: [
        entity('Person', 'Ada'),
        entity('Person', 'Bob', {}),
        entity('Organization', 'Acme'),
        entity('Place', 'Leeds'),
        entity('Place', 'York'),
      ],
      relationships: [
        { type: 'WORKS_FOR', from_key: 'Person:ada', to_key: 'Organization:acme', evidence: '', confidence: 0.6 },
        { type: 'WORKS_FOR', from_key: 'Organization:acme', to_key: 'Person:bob', evidence: '', confidence: 0.5 },
        { type: 'LOCATED_IN', from_key: 'Organization:acme', to_key: 'Place:leeds', evidence: '', confidence: 0.9 },
        { type: 'LOCATED_IN', from_key: 'Organization:acme', to_key: 'Place:york', evidence: '', confidence: 0.8 },
      ],
      stats: {
        characters: 1000,
        sentences: 10,
        signals: {
          sentences_with_names: 8,
          sentences_yielding: 6,
          names: 10,
          names_typed: 5,
          relatable_sentences: 4,
          related_sentences: 1,
          agreement: 0.7,
        },
      },
    };
    // Bob lacks the required name; Acme → Bob runs backwards; York is a second many-to-one target.
    const conformance = 6 / 9;
    const { quality, components } = scoreExtraction(result, generalShape);
    assert.deepEqual(components, {
      conformance: 0.6667,
      sentence_yield: 0.75,
      name_coverage: 0.5,
      relation_density: 0.25,
      agreement: 0.7,
    });
    assert.equal(quality, Math.round(((conformance + 0.75 + 0.5 + 0.25 + 0.7) / 5) * 10000) / 10000);
  });

  it('a text with nothing to extract is a finished, successful extraction: quality 1', async () => {
    for (const text of ['', '   ', 'Nothing of note happened on that quiet afternoon.']) {
      const score = scoreExtraction(await extractor.extract(text, generalShape, { effort: 'agentic' }), generalShape);
      assert.equal(score.quality, 1, text);
      assert.equal(score.nothing_to_extract, true, text);
    }
  });

  it('stays within 0..1 on real extractions', async () => {
    for (const text of [paragraph, paragraph.repeat(5)]) {
      for (const effort of ['agentic', 'agentic_plus'] as const) {
        const { quality, components } = scoreExtraction(
          await extractor.extract(text, fixtureShape, { effort }),
          fixtureShape,
        );
        for (const value of [quality, ...Object.values(components)])
          assert.ok(value >= 0 && value <= 1, `${value} for ${effort}`);
      }
    }
  });

  it('drops when names go unread or relations go missing, as real quality does', async () => {
    const text =
      'Mara Quell works for Lumenfold Inc., a robotics firm based in Harrowgate. Tobias Wren joined Bramwell & Ford.';
    const full = await extractor.extract(text, generalShape, { effort: 'agentic' });
    const signals = full.stats.signals;
    assert.ok(signals);
    const missing: ExtractionResult = {
      ...full,
      entities: full.entities.slice(0, 2),
      relationships: [],
      stats: { ...full.stats, signals: { ...signals, sentences_yielding: 1, names_typed: 2, related_sentences: 0 } },
    };
    const good = scoreExtraction(full, generalShape);
    const bad = scoreExtraction(missing, generalShape);
    assert.ok(good.quality > bad.quality + 0.2, `${good.quality} vs ${bad.quality}`);
    assert.equal(good.components.relation_density, 1);
    assert.equal(good.components.sentence_yield, 1);
  });

  it('a misread relation (wrong direction or type) lowers conformance', async () => {
    const clean = await extractor.extract(paragraph, fixtureShape, { effort: 'agentic_plus' });
    const flipped: ExtractionResult = {
      ...clean,
      relationships: clean.relationships.map((r) => ({ ...r, from_key: r.to_key, to_key: r.from_key })),
    };
    assert.equal(scoreExtraction(clean, fixtureShape).components.conformance, 1);
    assert.ok(scoreExtraction(flipped, fixtureShape).components.conformance < 1);
  });

  it('the same result always gets the same score', async () => {
    const result = await extractor.extract(paragraph, fixtureShape, { effort: 'agentic' });
    assert.deepEqual(scoreExtraction(structuredClone(result), fixtureShape), scoreExtraction(result, fixtureShape));
  });
});
