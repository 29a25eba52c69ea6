import assert from 'node:assert/strict';
import { BuiltinExtractor } from '../../src/extraction/builtin.js';
import { scoreExtraction } from '../../src/extraction/quality.js';
import type { ExtractionResult } from '../../src/extraction/types.js';
import { generalShape, paragraph } from './fixtures.js';

const person = (name: string, confidence: number, properties: Record<string, string> = { name }) =>
  ({ key: `Person:${name.toLowerCase()}`, type: 'Person', name, normalized_name: name.toLowerCase(), properties, mentions: [], confidence });

describe('extraction quality', () => {
  it('is the documented mean of completeness, conformance, confidence and coverage', () => {
    const result: ExtractionResult = {
      entities: [
        person('Ada', 0.8),
        person('Bob', 0.6, {}),
        { key: 'Organization:acme', type: 'Organization', name: 'Acme', normalized_name: 'acme', properties: { name: 'Acme' }, mentions: [], confidence: 1 },
      ],
      relationships: [
        { type: 'WORKS_FOR', from_key: 'Person:ada', to_key: 'Organization:acme', evidence: '', confidence: 0.6 },
        { type: 'WORKS_FOR', from_key: 'Organization:acme', to_key: 'Person:bob', evidence: '', confidence: 0.5 },
      ],
      stats: { characters: 1000, sentences: 10 },
    };
    const completeness = 2 / 3;
    const conformance = 1 / 2;
    const confidence = (0.8 + 0.6 + 1 + 0.6 + 0.5) / 5;
    const coverage = 3 / 5;
    const { quality, components } = scoreExtraction(result, generalShape);
    assert.deepEqual(components, { completeness: 0.6667, conformance: 0.5, confidence: 0.7, coverage: 0.6 });
    assert.equal(quality, Math.round(((completeness + conformance + confidence + coverage) / 4) * 10000) / 10000);
  });

  it('stays within 0..1, and is 0 for an empty result', async () => {
    const extractor = new BuiltinExtractor();
    for (const text of ['', 'no names here at all.', paragraph, paragraph.repeat(20)]) {
      for (const effort of ['agentic', 'agentic_plus'] as const) {
        const { quality, components } = scoreExtraction(await extractor.extract(text, generalShape, { effort }), generalShape);
        for (const value of [quality, ...Object.values(components)]) assert.ok(value >= 0 && value <= 1, `${value} for ${effort}`);
      }
    }
    assert.equal(scoreExtraction({ entities: [], relationships: [], stats: { characters: 0, sentences: 0 } }, generalShape).quality, 0);
  });

  it('a clean extraction scores higher than the same one degraded', async () => {
    const clean = await new BuiltinExtractor().extract(paragraph, generalShape, { effort: 'agentic_plus' });
    const degraded: ExtractionResult = {
      ...clean,
      entities: clean.entities.slice(0, 4).map((e) => ({ ...e, properties: {}, confidence: 0.2 })),
      relationships: clean.relationships.map((r) => ({ ...r, from_key: r.to_key, to_key: r.from_key, confidence: 0.2 })),
    };
    const good = scoreExtraction(clean, generalShape);
    const bad = scoreExtraction(degraded, generalShape);
    assert.ok(good.quality > bad.quality, `${good.quality} <= ${bad.quality}`);
    assert.equal(good.components.completeness, 1);
    assert.equal(good.components.conformance, 1);
    assert.equal(bad.components.completeness, 0);
    assert.equal(bad.components.conformance, 0);
  });

  it('the same result always gets the same score', async () => {
    const result = await new BuiltinExtractor().extract(paragraph, generalShape, { effort: 'agentic' });
    assert.deepEqual(scoreExtraction(structuredClone(result), generalShape), scoreExtraction(result, generalShape));
  });
});
