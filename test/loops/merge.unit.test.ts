import assert from 'node:assert/strict';
import { mergeExtractions, MIN_CONFIDENCE } from '../../src/loops/stageExtraction.js';
import type { ExtractedEntity, ExtractionResult } from '../../src/extractor/types.js';
import { generalShape } from '../extractor/fixtures.js';

const entity = (type: string, name: string, confidence = 0.9): ExtractedEntity => ({
  key: `${type}:${name.toLowerCase()}`,
  type,
  name,
  normalized_name: name.toLowerCase(),
  properties: {},
  mentions: [],
  confidence,
});

const result = (entities: ExtractedEntity[], relationships: ExtractionResult['relationships'] = []) => ({
  entities,
  relationships,
  stats: { characters: 100, sentences: 1 },
});

const worksFor = (from: string, to: string, confidence = 0.9) => ({
  type: 'WORKS_FOR',
  from_key: from,
  to_key: to,
  evidence: 'Ada works for Acme.',
  confidence,
});

const valid = () => [];

describe("a graph_extraction iteration's merge of what each source and shape gave", () => {
  it('keeps an entity two sources name once, at its highest confidence, remembering both sources', () => {
    const merged = mergeExtractions(
      [
        { sourceId: 'doc-1', shape: generalShape, result: result([entity('Person', 'Ada', 0.7)]) },
        { sourceId: 'doc-2', shape: generalShape, result: result([entity('Person', 'Ada', 0.95)]) },
      ],
      MIN_CONFIDENCE.agentic,
      valid,
    );
    assert.deepEqual([...merged.entities.keys()], ['Person|ada']);
    const ada = merged.entities.get('Person|ada')!;
    assert.equal(ada.confidence, 0.95);
    assert.deepEqual([...ada.sources].sort(), ['doc-1', 'doc-2']);
    assert.equal(merged.rejected, 0);
  });

  it('rejects an entity below the bar of the effort, and the relationship that needs it', () => {
    const extracted = [
      {
        sourceId: 'doc-1',
        shape: generalShape,
        result: result(
          [entity('Person', 'Ada', 0.6), entity('Organization', 'Acme')],
          [worksFor('Person:ada', 'Organization:acme')],
        ),
      },
    ];
    const agentic = mergeExtractions(extracted, MIN_CONFIDENCE.agentic, valid);
    assert.equal(agentic.entities.size, 2);
    assert.deepEqual([...agentic.relationships.keys()], ['WORKS_FOR|Person|ada|Organization|acme']);
    const strict = mergeExtractions(extracted, MIN_CONFIDENCE.agentic_plus, valid);
    assert.deepEqual([...strict.entities.keys()], ['Organization|acme']);
    assert.equal(strict.relationships.size, 0);
    assert.equal(strict.rejected, 2);
  });

  it('rejects what validation refuses and never keeps an engine label as an entity type', () => {
    const merged = mergeExtractions(
      [
        {
          sourceId: 'doc-1',
          shape: generalShape,
          result: result([entity('Person', 'Ada'), entity('Memory', 'A note'), entity('Place', 'Leeds')]),
        },
      ],
      MIN_CONFIDENCE.agentic,
      (_shape, label) => (label === 'Place' ? ['a Place needs a country'] : []),
    );
    assert.deepEqual([...merged.entities.keys()], ['Person|ada']);
    assert.equal(merged.rejected, 2);
  });
});
