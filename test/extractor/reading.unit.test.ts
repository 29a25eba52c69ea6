import assert from 'node:assert/strict';
import { BuiltinExtractor } from '../../src/extractor/builtin.js';
import type { ExtractionResult } from '../../src/extractor/types.js';
import { generalShape } from './eval/shape.js';

const extractor = new BuiltinExtractor();
const read = (text: string) => extractor.extract(text, generalShape, { effort: 'agentic' });
const names = (r: ExtractionResult) => r.entities.map((e) => `${e.type}:${e.name}`);
const triples = (r: ExtractionResult) => r.relationships.map((x) => `${x.type} ${x.from_key} ${x.to_key}`).sort();

describe('built-in extractor reading sentences', () => {
  it('keeps names whole: initials, "&", and an abbreviated suffix with its full stop', async () => {
    const result = await read('J. K. Rowling met the partners of Bramwell & Ford and Lumenfold Inc. in Harrowgate.');
    for (const name of [
      'Person:J. K. Rowling',
      'Organization:Bramwell & Ford',
      'Organization:Lumenfold Inc.',
      'Place:Harrowgate',
    ]) {
      assert.ok(names(result).includes(name), `${name} not in ${names(result).join(', ')}`);
    }
  });

  it('reads no relation from a negated statement, and the one an elided "but X did" states', async () => {
    assert.deepEqual(triples(await read('Tobias Wren has never worked for Bramwell & Ford.')), []);
    assert.deepEqual(triples(await read('Brindle & Vosk Ltd. is not based in Harrowgate.')), []);
    assert.deepEqual(triples(await read('Orla Brisk did not attend the Tessellate Summit, but Hamid Castell did.')), [
      'PARTICIPATED_IN Person:hamid castell Event:tessellate summit',
    ]);
  });

  it('a many-to-one LOCATED_IN gives one target: the most specific of nested places', async () => {
    const result = await read('Bramwell & Ford is headquartered in Tessaly, a port city in Vellmark.');
    assert.deepEqual(triples(result), ['LOCATED_IN Organization:bramwell & ford Place:tessaly']);
    assert.ok(names(result).includes('Place:Vellmark'));
  });

  it('reads passives, coordination on both sides and a relative clause with the object first', async () => {
    assert.deepEqual(triples(await read('The Quillon Reader was designed by Isolde Varga and Piet Ramsauer.')), [
      'CREATED Person:isolde varga Product:quillon reader',
      'CREATED Person:piet ramsauer Product:quillon reader',
    ]);
    assert.deepEqual(
      triples(await read('Quillon Labs, Dovecote Systems Ltd. and Fenwick & Daughters are based in Pellham.')),
      [
        'LOCATED_IN Organization:dovecote systems ltd Place:pellham',
        'LOCATED_IN Organization:fenwick & daughters Place:pellham',
        'LOCATED_IN Organization:quillon labs Place:pellham',
      ],
    );
    assert.deepEqual(triples(await read('Serith Motors makes the Vanta EV, which Lio Marchetti designed.')), [
      'CREATED Person:lio marchetti Product:vanta ev',
    ]);
  });

  it('a verb whose subject is the employer ("hired") still gives person WORKS_FOR organization', async () => {
    assert.deepEqual(triples(await read('Dovecote Systems Ltd. hired Ravi Okonkwo-Hale as its chief engineer.')), [
      'WORKS_FOR Person:ravi okonkwo-hale Organization:dovecote systems ltd',
    ]);
  });

  it('an organization does not "create" a product in a shape where only people do', async () => {
    const result = await read('Tidewater Labs designed Nimbus OS for Pellham University.');
    assert.deepEqual(triples(result), []);
    assert.ok(names(result).includes('Product:Nimbus OS'));
  });

  it('finds lower-case concepts where the sentence says they are ideas', async () => {
    assert.deepEqual(
      triples(
        await read('Deep learning is part of machine learning, which in turn belongs to artificial intelligence.'),
      ),
      [
        'PART_OF Concept:deep learning Concept:machine learning',
        'PART_OF Concept:machine learning Concept:artificial intelligence',
      ],
    );
  });

  it('a pronoun subject stands for the latest fitting name', async () => {
    const result = await read(
      'Quorra Baines is a professor at the Halloway Institute of Technology, where she created the Threnody compiler.',
    );
    assert.deepEqual(triples(result), [
      'CREATED Person:quorra baines Product:threnody',
      'WORKS_FOR Person:quorra baines Organization:halloway institute of technology',
    ]);
  });
});
