import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { connectionSecurity } from '../../src/temporal/connection.js';

describe('Temporal security (Temporal Cloud, a cluster with TLS)', () => {
  it('the local dev server takes no TLS; an API key or a client certificate turns TLS on and goes with every connection', () => {
    assert.deepEqual(connectionSecurity(loadConfig({}).temporal.security), {});
    assert.deepEqual(connectionSecurity(loadConfig({ TEMPORAL_API_KEY: 'k' }).temporal.security), {
      tls: true,
      apiKey: 'k',
    });
    assert.deepEqual(connectionSecurity(loadConfig({ TEMPORAL_TLS: 'true' }).temporal.security), { tls: true });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gks-tls-'));
    fs.writeFileSync(path.join(dir, 'c.pem'), 'CERT');
    fs.writeFileSync(path.join(dir, 'k.pem'), 'KEY');
    const mtls = connectionSecurity(
      loadConfig({ TEMPORAL_TLS_CERT: path.join(dir, 'c.pem'), TEMPORAL_TLS_KEY: path.join(dir, 'k.pem') }).temporal
        .security,
    );
    assert.deepEqual(mtls, { tls: { clientCertPair: { crt: Buffer.from('CERT'), key: Buffer.from('KEY') } } });
    fs.rmSync(dir, { recursive: true });
  });

  it('a client certificate without its key (or the other way round) fails at start naming the variable', () => {
    assert.throws(
      () => loadConfig({ TEMPORAL_TLS_CERT: '/c.pem' }),
      (e: unknown) => e instanceof ConfigError && /TEMPORAL_TLS_KEY/.test(e.message),
    );
    assert.throws(
      () => loadConfig({ TEMPORAL_TLS_KEY: '/k.pem' }),
      (e: unknown) => e instanceof ConfigError && /TEMPORAL_TLS_CERT/.test(e.message),
    );
  });
});
