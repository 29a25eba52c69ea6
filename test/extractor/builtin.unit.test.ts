import assert from 'node:assert/strict';
import { BuiltinExtractor } from '../../src/extractor/builtin.js';
import type { ExtractionResult } from '../../src/extractor/types.js';
import type { ShapeDef } from '../../src/shapes/types.js';
import { generalShape, narrowShape, paragraph } from './fixtures.js';

const extractor = new BuiltinExtractor();
const keys = (r: ExtractionResult) => r.entities.map((e) => e.key);
const triples = (r: ExtractionResult) => r.relationships.map((x) => `${x.type} ${x.from_key} ${x.to_key}`);

describe('builtin extractor', () => {
  it('finds the people, organisations and places of a paragraph', async () => {
    const result = await extractor.extract(paragraph, generalShape, { effort: 'agentic' });
    for (const key of [
      'Person:ada lovelace',
      'Person:charles babbage',
      'Person:tim cook',
      'Organization:analytical engines ltd',
      'Organization:microsoft',
      'Organization:apple inc',
      'Place:london',
      'Place:seattle',
      'Place:paris',
    ]) {
      assert.ok(keys(result).includes(key), `missing ${key} in ${keys(result).join(', ')}`);
    }
    assert.deepEqual(
      { characters: result.stats.characters, sentences: result.stats.sentences },
      { characters: paragraph.length, sentences: 5 },
    );
  });

  it('every mention cites the exact text at its offsets', async () => {
    const result = await extractor.extract(paragraph, generalShape, { effort: 'agentic_plus' });
    for (const mention of result.entities.flatMap((e) => e.mentions))
      assert.equal(paragraph.slice(mention.start, mention.end), mention.text);
  });

  it('mention offsets stay exact across emoji, accents, quotes and CRLF line ends', async () => {
    const text =
      'Zoë Müller 🙂 works for “Café Nero Ltd.”\r\nThe firm is based in Zürich.\r\n\r\nTim Cook joined Apple Inc. in São Paulo.';
    const result = await extractor.extract(text, generalShape, { effort: 'agentic_plus' });
    const mentions = result.entities.flatMap((e) => e.mentions);
    assert.ok(
      mentions.some((m) => m.text === 'Zürich') && mentions.some((m) => m.text === 'Tim Cook'),
      JSON.stringify(mentions),
    );
    for (const mention of mentions) assert.equal(text.slice(mention.start, mention.end), mention.text);
  });

  it('reads WORKS_FOR from "Ada Lovelace works for Analytical Engines Ltd."', async () => {
    const text = 'Ada Lovelace works for Analytical Engines Ltd.';
    const result = await extractor.extract(text, generalShape, { effort: 'agentic' });
    assert.deepEqual(
      result.relationships.map(({ confidence: _c, ...r }) => r),
      [
        {
          type: 'WORKS_FOR',
          from_key: 'Person:ada lovelace',
          to_key: 'Organization:analytical engines ltd',
          evidence: text,
        },
      ],
    );
    assert.ok((result.relationships[0]?.confidence ?? 0) >= 0.8);
    assert.deepEqual(result.entities[0]?.properties, { name: 'Ada Lovelace' });
  });

  it('a first name used alone joins the one full name it belongs to', async () => {
    const result = await extractor.extract(paragraph, generalShape, { effort: 'agentic' });
    const ada = result.entities.find((e) => e.key === 'Person:ada lovelace');
    assert.deepEqual(
      ada?.mentions.map((m) => m.text),
      ['Ada Lovelace', 'Ada'],
    );
    assert.ok(!keys(result).includes('Person:ada'));
  });

  it('a cue word next to a capitalised phrase gives it that type ("the Apollo project" is a Product)', async () => {
    const result = await extractor.extract(paragraph, generalShape, { effort: 'agentic' });
    assert.ok(keys(result).includes('Product:apollo'));
    assert.ok(keys(result).includes('Event:web summit'));
    assert.ok(triples(result).includes('PART_OF Concept:lambda calculus Concept:computation theory'));
  });

  it('names a shape lists in an enum are found whatever their case', async () => {
    const shape: ShapeDef = {
      ...generalShape,
      entity_types: [
        {
          label: 'Concept',
          properties: [{ name: 'name', type: 'string', enum: ['Machine Learning', 'lambda calculus'] }],
          required: ['name'],
          identity: 'name',
        },
      ],
      relationship_types: [],
    };
    const result = await extractor.extract('We teach machine learning before Lambda Calculus.', shape, {
      effort: 'agentic',
    });
    assert.deepEqual(keys(result), ['Concept:machine learning', 'Concept:lambda calculus']);
  });

  for (const effort of ['agentic', 'agentic_plus'] as const) {
    it(`types missing from the shape are never emitted (${effort})`, async () => {
      const result = await extractor.extract(paragraph, narrowShape, { effort });
      assert.ok(result.entities.length > 0);
      for (const entity of result.entities) assert.ok(['Person', 'Product'].includes(entity.type), entity.key);
      for (const rel of result.relationships) assert.equal(rel.type, 'CREATED');
    });

    it(`the same input gives a byte-identical result (${effort})`, async () => {
      const first = await extractor.extract(paragraph, generalShape, { effort });
      const second = await new BuiltinExtractor().extract(paragraph, structuredClone(generalShape), { effort });
      assert.deepEqual(second, first);
      assert.equal(JSON.stringify(second), JSON.stringify(first));
    });
  }

  it('agentic_plus finds at least everything agentic finds, and more on this paragraph', async () => {
    const texts = [
      paragraph,
      'Ada Lovelace works for Analytical Engines Ltd.',
      'Grace Hopper built the Mark I Compiler. Hopper joined Remington Rand in Philadelphia.',
    ];
    for (const text of texts) {
      const agentic = await extractor.extract(text, generalShape, { effort: 'agentic' });
      const plus = await extractor.extract(text, generalShape, { effort: 'agentic_plus' });
      for (const key of keys(agentic)) assert.ok(keys(plus).includes(key), `${key} lost by agentic_plus`);
      for (const triple of triples(agentic))
        assert.ok(triples(plus).includes(triple), `${triple} lost by agentic_plus`);
    }
    const plus = await extractor.extract(paragraph, generalShape, { effort: 'agentic_plus' });
    assert.ok(triples(plus).includes('CREATED Person:ada lovelace Product:difference engine'));
    assert.ok(triples(plus).includes('LOCATED_IN Organization:analytical engines ltd Place:london'));
  });

  it('a subject stays linked across an apposition, however long', async () => {
    const text =
      "Ada Lovelace, the celebrated and famously brilliant mathematician and poet's daughter, works for Analytical Engines Ltd.";
    const result = await extractor.extract(text, generalShape, { effort: 'agentic', pass: 1 });
    assert.deepEqual(triples(result), ['WORKS_FOR Person:ada lovelace Organization:analytical engines ltd']);
  });

  it('a later pass accepts a name on weaker evidence (a lone acronym)', async () => {
    const text = 'Everyone admires QRV.';
    assert.deepEqual(keys(await extractor.extract(text, generalShape, { effort: 'agentic', pass: 1 })), []);
    assert.deepEqual(keys(await extractor.extract(text, generalShape, { effort: 'agentic', pass: 3 })), [
      'Organization:qrv',
    ]);
  });

  it('a long text is read in blocks of whole paragraphs: progress between them, offsets exact, one entity per name', async () => {
    const text = Array.from(
      { length: 120 },
      (_, i) => `Mara Quell${i % 3} works for Lumenfold Inc. Lumenfold Inc. is based in Harrowgate. ${paragraph}`,
    ).join('\n\n');
    let progress = 0;
    const result = await extractor.extract(text, generalShape, { effort: 'agentic', onProgress: () => progress++ });
    assert.ok(text.length > 40_000 && progress >= 2, `${progress} blocks for ${text.length} characters`);
    for (const mention of result.entities.flatMap((e) => e.mentions))
      assert.equal(text.slice(mention.start, mention.end), mention.text);
    assert.equal(result.entities.filter((e) => e.key === 'Organization:lumenfold inc').length, 1);
    assert.ok(triples(result).includes('WORKS_FOR Person:mara quell1 Organization:lumenfold inc'));
    assert.deepEqual(
      triples(result).filter((t) => t.startsWith('LOCATED_IN Organization:lumenfold inc')),
      ['LOCATED_IN Organization:lumenfold inc Place:harrowgate'],
    );
  });

  it('empty text gives an empty result', async () => {
    const result = await extractor.extract('', generalShape, { effort: 'agentic_plus' });
    assert.deepEqual(
      { ...result, stats: { ...result.stats, signals: undefined } },
      { entities: [], relationships: [], stats: { characters: 0, sentences: 0, signals: undefined } },
    );
    assert.deepEqual(result.stats.signals, {
      sentences_with_names: 0,
      sentences_yielding: 0,
      names: 0,
      names_typed: 0,
      relatable_sentences: 0,
      related_sentences: 0,
      agreement: 1,
    });
  });
});
