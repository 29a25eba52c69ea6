import assert from 'node:assert/strict';
import { newTenant } from '../support/api.js';
import { harness } from '../support/harness.js';
import { upload } from '../documents/support.js';

async function documentCount(projectId: string): Promise<number> {
  const [row] = await harness().service.deps.graph.read((tx) =>
    tx.runText('MATCH (d:Document {project_id: $p}) RETURN count(d) AS n', { p: projectId }),
  );
  return Number(row?.n);
}

describe('multipart uploads are streamed with limits', function () {
  this.timeout(120_000);

  it('more than 20 text fields is a 413 and nothing is written', async () => {
    const t = await newTenant(0);
    const fields = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`extra${i}`, 'x']));
    const reply = await upload(t, { filename: 'a.txt', data: 'text', fields });
    assert.equal(reply.status, 413, JSON.stringify(reply.body));
    assert.equal(reply.body.error.code, 'payload_too_large');
    assert.equal(await documentCount(t.projectId), 0);
  });

  it('a text field over 64 KiB is a 413', async () => {
    const t = await newTenant(0);
    const reply = await upload(t, { filename: 'a.txt', data: 'text', fields: { title: 'x'.repeat(70_000) } });
    assert.equal(reply.status, 413, JSON.stringify(reply.body));
    assert.equal(reply.body.error.code, 'payload_too_large');
  });

  it('a second file part is a 413, not silently dropped', async () => {
    const t = await newTenant(0);
    const form = new FormData();
    form.append('file', new Blob(['first']), 'one.txt');
    form.append('other', new Blob(['second']), 'two.txt');
    const response = await fetch(`${harness().url}/v1/documents`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${t.key}` },
      body: form,
    });
    assert.equal(response.status, 413);
    assert.equal(await documentCount(t.projectId), 0);
  });

  it('an upload within the limits is read whole, fields and file', async () => {
    const t = await newTenant(0);
    const data = 'Line one.\n'.repeat(5000);
    const reply = await upload(t, { filename: 'big.txt', data, fields: { title: 'Big text', tags: 'a,b' } });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    assert.equal(reply.body.document.title, 'Big text');
    const source = (await t.get(`/v1/documents/${reply.body.id}`)).body.source;
    assert.equal(source.sizeBytes, Buffer.byteLength(data));
  });
});
