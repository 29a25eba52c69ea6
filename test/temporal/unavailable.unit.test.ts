import assert from 'node:assert/strict';
import net from 'node:net';
import { ApiError } from '../../src/errors/catalogue.js';
import { TemporalGateway } from '../../src/temporal/connection.js';

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('Temporal unavailable: one answer for loops, syncs and webhook deliveries', () => {
  it('is a 503 loop_dispatch_unavailable with since and Retry-After, whatever it says did not happen', () => {
    const gateway = new TemporalGateway({ address: '127.0.0.1:1', namespace: 'default', taskQueue: 'q' });
    gateway.reportFailure(new Error('connection refused'));
    const error = gateway.unavailable('Sync execution is temporarily unavailable; nothing was started.', {
      cause: 'x',
    });
    assert.equal(error.code, 'loop_dispatch_unavailable');
    assert.equal(error.status, 503);
    assert.equal(error.message, 'Sync execution is temporarily unavailable; nothing was started.');
    assert.equal(error.headers['Retry-After'], String(gateway.health.retryAfterSeconds));
    assert.equal(error.details.since, gateway.health.snapshot().since);
    assert.equal(error.details.cause, 'x');
  });

  it('a client asked of a server that does not answer is that 503, not a driver error', async () => {
    const gateway = new TemporalGateway({
      address: `127.0.0.1:${await closedPort()}`,
      namespace: 'default',
      taskQueue: 'q',
    });
    const error = await gateway
      .clientOrUnavailable('Delivery (Temporal) is temporarily unreachable; nothing was sent.')
      .then(
        () => null,
        (e: unknown) => e,
      );
    assert.ok(error instanceof ApiError, `expected an ApiError, got ${String(error)}`);
    assert.equal(error.code, 'loop_dispatch_unavailable');
    assert.equal(error.message, 'Delivery (Temporal) is temporarily unreachable; nothing was sent.');
    assert.ok(error.headers['Retry-After'], 'carries Retry-After');
    await gateway.close();
  });
});
