import assert from 'node:assert/strict';
import { DrainPacer, LiveTraffic } from '../../src/shared/pacing.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('Pacing of background drains behind live requests', () => {
  it('with no request in flight for the quiet time a drain takes its turn at once', async () => {
    const traffic = new LiveTraffic();
    const pacer = new DrainPacer(traffic, { quietMs: 20, maxYieldMs: 1_000 });
    await sleep(30);
    assert.ok((await pacer.turn()) < 15);
    assert.ok((await pacer.turn()) < 15, 'and again: its own turns are not traffic');
  });

  it('while requests are in flight a drain waits until they are done and the process has been quiet a moment', async () => {
    const traffic = new LiveTraffic();
    const pacer = new DrainPacer(traffic, { quietMs: 20, maxYieldMs: 2_000 });
    const end = traffic.begin();
    const other = traffic.begin();
    setTimeout(end, 100);
    setTimeout(other, 200);
    const yielded = await pacer.turn();
    assert.ok(yielded >= 200 + 15 && yielded < 600, `yielded ${yielded.toFixed(0)} ms`);
    assert.equal(traffic.busy, 0);
  });

  it('a steady load never stops a drain: it takes its turn after maxYieldMs at the latest', async () => {
    const traffic = new LiveTraffic();
    const pacer = new DrainPacer(traffic, { quietMs: 20, maxYieldMs: 150 });
    const end = traffic.begin();
    try {
      const yielded = await pacer.turn();
      assert.ok(yielded >= 140 && yielded < 500, `yielded ${yielded.toFixed(0)} ms`);
      assert.deepEqual(pacer.taken.turns, 1);
    } finally {
      end();
    }
  });

  it('a request ended twice counts once', () => {
    const traffic = new LiveTraffic();
    const end = traffic.begin();
    traffic.begin();
    end();
    end();
    assert.equal(traffic.busy, 1);
  });
});
