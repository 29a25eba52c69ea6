import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { signatures } from '../../src/webhooks/signing.js';
import { Webhook } from 'standardwebhooks';

describe('webhooks: configuration and signing', () => {
  it('the default retry schedule spans about 24 hours with 10 exponential waits; overlap 24 h; timeout 10 s', () => {
    const { webhooks } = loadConfig({});
    assert.deepEqual(
      webhooks.retrySchedule,
      [5e3, 30e3, 120e3, 600e3, 1_800e3, 3_600e3, 7_200e3, 14_400e3, 28_800e3, 28_800e3],
    );
    const hours = webhooks.retrySchedule.reduce((a, b) => a + b, 0) / 3_600_000;
    assert.ok(hours > 23 && hours < 25, `${hours} h`);
    assert.equal(webhooks.secretOverlapMs, 24 * 3_600_000);
    assert.equal(webhooks.timeoutMs, 10_000);
    assert.equal(webhooks.maxResponseBytes, 4096);
  });

  it('WEBHOOK_RETRY_SCHEDULE compresses time (ms, s, m, h); a bad duration fails at start naming the variable', () => {
    assert.deepEqual(
      loadConfig({ WEBHOOK_RETRY_SCHEDULE: '100ms,2s,1m,1h' }).webhooks.retrySchedule,
      [100, 2_000, 60_000, 3_600_000],
    );
    for (const bad of ['5 seconds', '1d', ',', '5s,,5s']) {
      assert.throws(
        () => loadConfig({ WEBHOOK_RETRY_SCHEDULE: bad }),
        (e: unknown) => e instanceof ConfigError && /WEBHOOK_RETRY_SCHEDULE/.test(e.message),
      );
    }
    assert.throws(() => loadConfig({ WEBHOOK_SECRET_OVERLAP: 'soon' }), /WEBHOOK_SECRET_OVERLAP/);
  });

  it('every secret still signing adds a signature the library verifies with that secret alone', () => {
    const a = `whsec_${Buffer.alloc(24, 1).toString('base64')}`;
    const b = `whsec_${Buffer.alloc(24, 2).toString('base64')}`;
    const at = new Date();
    const body = '{"id":"e1"}';
    const header = signatures([a, b], 'e1', at, body);
    assert.equal(header.split(' ').length, 2);
    const headers = {
      'webhook-id': 'e1',
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': header,
    };
    for (const secret of [a, b]) assert.doesNotThrow(() => new Webhook(secret).verify(body, headers));
    const c = `whsec_${Buffer.alloc(24, 3).toString('base64')}`;
    assert.throws(() => new Webhook(c).verify(body, headers));
  });
});
