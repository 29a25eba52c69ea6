import assert from 'node:assert/strict';
import { expectOk, UpstreamError } from '../../src/connections/http.js';
import { vetTarget } from '../../src/documents/ingest/target.js';

describe('Outbound errors leak neither tokens nor internal addresses', () => {
  it('an upstream error body is scrubbed of the token before it is cut, so no part of a token at the cut survives', () => {
    const token = 'tok_abcdefghijklmnopSECRETx9';
    for (let pad = 180; pad < 200; pad++) {
      const response = { status: 400, headers: {}, text: `${'x'.repeat(pad)} ${token} trailing`, url: 'http://h/' };
      assert.throws(
        () => expectOk(response, token, 'GET /items'),
        (e: unknown) => e instanceof UpstreamError && !e.message.includes(token.slice(0, 6)),
        `padding ${pad}`,
      );
    }
  });

  it('a host refused as private is named, the address it resolved to is not', async () => {
    const resolve = async () => [{ address: '10.20.30.40', family: 4 as const }];
    await assert.rejects(vetTarget(new URL('http://intranet.example/x'), false, resolve), (e: unknown) => {
      const text = JSON.stringify(e) + String((e as Error).message);
      return /private address/.test(text) && !text.includes('10.20.30.40') && text.includes('intranet.example');
    });
  });
});
