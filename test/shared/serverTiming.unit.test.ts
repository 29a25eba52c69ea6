import assert from 'node:assert/strict';
import { phase, phaseSync, readServerTiming, serverTiming, withTiming } from '../../src/shared/serverTiming.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('Server-Timing: where a request spent its time', () => {
  it('phases run within a request are answered with their own wall time, side by side ones each whole', async () => {
    const { value, header } = await withTiming(async () => {
      await Promise.all([phase('embed', () => sleep(40)), phase('words', () => sleep(10))]);
      phaseSync('rank', () => 7);
      return 'answer';
    });
    assert.equal(value, 'answer');
    const phases = readServerTiming(header);
    assert.deepEqual([...phases.keys()], ['words', 'embed', 'rank']);
    assert.ok(phases.get('embed')! >= 35, header);
    assert.ok(phases.get('words')! >= 5 && phases.get('words')! < phases.get('embed')!, header);
  });

  it('a phase that fails is still recorded, and its error reaches the caller', async () => {
    const { header } = await withTiming(async () => {
      await assert.rejects(
        phase('vector', () => Promise.reject(new Error('engine down'))),
        /engine down/,
      );
    });
    assert.match(header, /^vector;dur=\d+\.\d$/);
  });

  it('outside a request nothing is recorded and the work still runs', async () => {
    assert.equal(await phase('embed', async () => 3), 3);
    assert.equal(
      phaseSync('rank', () => 4),
      4,
    );
  });

  it('a phase run twice in one request is said once, with its total', () => {
    assert.equal(
      serverTiming([
        ['answer', 1.25],
        ['vector', 2],
        ['answer', 1],
      ]),
      'answer;dur=2.3, vector;dur=2.0',
    );
  });

  it('reading a header skips what is not a name with a duration', () => {
    const phases = readServerTiming('embed;dur=23.9, cache;desc="hit", ;dur=4, vector;desc=x;dur=8');
    assert.deepEqual(
      [...phases],
      [
        ['embed', 23.9],
        ['vector', 8],
      ],
    );
    assert.equal(readServerTiming(null).size, 0);
  });
});
