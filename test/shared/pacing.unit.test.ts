import assert from 'node:assert/strict';
import { DEFAULT_PACING, DrainPacer, LiveTraffic, yieldBound } from '../../src/shared/pacing.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs `work` while one request is in flight (a load that never pauses), and ends it whatever happens. */
async function underLoad<T>(traffic: LiveTraffic, work: () => Promise<T>): Promise<T> {
  const end = traffic.begin();
  try {
    return await work();
  } finally {
    end();
  }
}

/** How long the pacer yielded before a batch of `batchMs` it ran through paced(). */
async function pacedYield(pacer: DrainPacer, batchMs: number): Promise<number> {
  const began = performance.now();
  await pacer.paced(() => sleep(batchMs));
  return performance.now() - began - batchMs;
}

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
    const yielded = await underLoad(traffic, () => pacer.turn());
    assert.ok(yielded >= 140 && yielded < 500, `yielded ${yielded.toFixed(0)} ms`);
    assert.deepEqual(pacer.taken.turns, 1);
  });

  it('under a writing load that never pauses a drain keeps its floor share: after a batch of B ms it yields B x 3 at most', async () => {
    const traffic = new LiveTraffic();
    const pacer = new DrainPacer(traffic, { quietMs: 20, maxYieldMs: 5_000, floorShare: 0.25 });
    await sleep(30);
    await pacedYield(pacer, 40); // quiet: at once, and times the batch
    const yields = await underLoad(traffic, async () => {
      const found: number[] = [];
      for (let i = 0; i < 3; i += 1) {
        traffic.begin(true)(); // a write came and went meanwhile, feeding the queue
        found.push(await pacedYield(pacer, 40));
      }
      return found;
    });
    // Each yield is about 3 x the last batch (40 ms and a timer's lateness), far from maxYieldMs.
    for (const y of yields) assert.ok(y >= 110 && y < 600, `yielded ${yields.map((v) => v.toFixed(0)).join(', ')} ms`);
    assert.equal(pacer.taken.turns, 4);
  });

  it('under a load of reads alone (nothing feeds the queue) a drain yields up to maxYieldMs, floor or not', async () => {
    const traffic = new LiveTraffic();
    const pacer = new DrainPacer(traffic, { quietMs: 20, maxYieldMs: 300, floorShare: 0.25 });
    await sleep(30);
    await pacedYield(pacer, 40);
    const yielded = await underLoad(traffic, () => pacedYield(pacer, 40));
    assert.ok(yielded >= 280 && yielded < 800, `yielded ${yielded.toFixed(0)} ms`);
  });

  it('the floor bounds the yield by the last batch, maxYieldMs bounds it always, and share 0 is no floor', () => {
    const options = { ...DEFAULT_PACING, maxYieldMs: 2_000, floorShare: 0.25 };
    assert.equal(yieldBound(options, null), 2_000);
    assert.equal(yieldBound(options, 100), 300);
    assert.equal(yieldBound(options, 1_000), 2_000);
    assert.equal(yieldBound({ ...options, floorShare: 0 }, 100), 2_000);
    assert.equal(yieldBound({ ...options, floorShare: 1 }, 100), 0);
    assert.equal(yieldBound({ ...options, floorShare: 0.5 }, 100), 100);
  });

  it('a request arriving mid-batch goes first: the batch pauses between its items until the request is done', async () => {
    const traffic = new LiveTraffic();
    const pacer = new DrainPacer(traffic, { quietMs: 20, maxYieldMs: 2_000 });
    await sleep(30);
    let end: (() => void) | undefined;
    const paused = await pacer.paced(async () => {
      await pacer.between(); // no request: at once
      end = traffic.begin(); // a request (a read) arrives while the batch works
      setTimeout(() => end!(), 120);
      const began = performance.now();
      await pacer.between();
      return performance.now() - began;
    });
    assert.ok(paused >= 110 && paused < 600, `paused ${paused.toFixed(0)} ms`);
    assert.equal(traffic.busy, 0);
  });

  it('under a writing load a batch does not pause between its items (the floor between batches is its share)', async () => {
    const traffic = new LiveTraffic();
    const pacer = new DrainPacer(traffic, { quietMs: 20, maxYieldMs: 5_000, floorShare: 0.25 });
    await sleep(30);
    await pacedYield(pacer, 10); // quiet: at once; under the load below the next turn then comes within 3 x 10 ms
    const paused = await underLoad(traffic, () => {
      traffic.begin(true)(); // a write came and went: the queue is fed
      return pacer.paced(async () => {
        const began = performance.now();
        for (let item = 0; item < 5; item += 1) await pacer.between();
        return performance.now() - began;
      });
    });
    assert.ok(paused < 50, `paused ${paused.toFixed(0)} ms`);
  });

  it("what the event loop ran while a batch gave it back is not the batch's time: the next yield is bounded by its own", async () => {
    const traffic = new LiveTraffic();
    const pacer = new DrainPacer(traffic, { quietMs: 20, maxYieldMs: 5_000, floorShare: 0.25, sliceMs: 5 });
    await sleep(30);
    const busyFor = (ms: number) => {
      const from = performance.now();
      while (performance.now() - from < ms);
    };
    await pacer.paced(async () => {
      busyFor(20); // the batch's own work
      setImmediate(() => busyFor(80)); // a request's work, run when the batch gives the loop back
      await pacer.between();
    });
    // Under a writing load the next turn yields about 3 x 20 ms (its own work), not 3 x 100 (its wall time).
    const yielded = await underLoad(traffic, () => {
      traffic.begin(true)();
      return pacer.turn();
    });
    assert.ok(yielded >= 50 && yielded < 200, `yielded ${yielded.toFixed(0)} ms`);
  });

  it('a write beginning while a batch pauses for a read ends the pause', async () => {
    const traffic = new LiveTraffic();
    const pacer = new DrainPacer(traffic, { quietMs: 20, maxYieldMs: 5_000 });
    await sleep(30);
    const paused = await pacer.paced(async () => {
      const end = traffic.begin(); // a read, in flight for a long time
      setTimeout(() => traffic.begin(true), 60); // then a write begins (and stays in flight)
      const began = performance.now();
      await pacer.between();
      end();
      return performance.now() - began;
    });
    assert.ok(paused >= 50 && paused < 400, `paused ${paused.toFixed(0)} ms`);
  });

  it('with no request in flight a batch gives the event loop back once sliceMs of its work has run', async () => {
    const traffic = new LiveTraffic();
    const pacer = new DrainPacer(traffic, { quietMs: 20, maxYieldMs: 2_000, sliceMs: 5 });
    await sleep(30);
    const turns = await pacer.paced(async () => {
      let ran = 0;
      let pending = false;
      let seen = 0;
      for (let item = 0; item < 20; item += 1) {
        // What else the event loop holds (one callback at a time): it runs only when the batch gives the loop back.
        if (!pending) {
          pending = true;
          setImmediate(() => {
            pending = false;
            ran += 1;
          });
        }
        await pacer.between();
        const work = performance.now();
        while (performance.now() - work < 2); // an item: 2 ms of the thread's own work
        seen = ran;
      }
      return seen;
    });
    // 40 ms of work in slices of at least 5 ms: the loop came back between 4 and 20 times, not after every item.
    assert.ok(turns >= 4 && turns < 20, `the event loop ran ${turns} times`);
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
