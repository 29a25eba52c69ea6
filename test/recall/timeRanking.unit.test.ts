import assert from 'node:assert/strict';
import { timeRanking, type ChannelCandidate } from '../../src/memories/channels.js';

const DAY = 86_400_000;
const candidate = (id: string, observedDay: number | null, best: number): ChannelCandidate<null> => ({
  hit: { id, item: null, text: id, score: 0, weight: 3 },
  links: { episode_id: null, observed_ms: observedDay === null ? null : observedDay * DAY, terms: [] },
  prior: 0,
  best,
});

describe('the time channel (pure)', () => {
  it('ranks the candidates observed within a window nearest the question first, whatever found them', () => {
    // "scanned" was read by the window's statement; "by-meaning" only by the vector index (the scan stopped
    // before it), and it is the nearer one: it ranks first. Outside the window, or with no time, none ranks.
    const ranked = timeRanking(
      [
        candidate('scanned', 10, 0.81),
        candidate('by-meaning', 12, 0.86),
        candidate('outside', 40, 0.95),
        candidate('untimed', null, 0.9),
      ],
      [{ from: 5 * DAY, to: 20 * DAY }],
    );
    assert.deepEqual(
      ranked.map((h) => h.id),
      ['by-meaning', 'scanned'],
    );
    assert.equal(ranked[0]!.score, 0.86);
    assert.equal(ranked[0]!.weight, undefined, 'the channel weighs its own hits alike');
  });

  it('ties on similarity go to the latest observed, then by id, so the same question ranks alike', () => {
    const ranked = timeRanking(
      [candidate('b', 6, -2), candidate('a', 6, -2), candidate('late', 9, -2)],
      [
        { from: 0, to: 7 * DAY },
        { from: 8 * DAY, to: 10 * DAY },
      ],
    );
    assert.deepEqual(
      ranked.map((h) => h.id),
      ['late', 'a', 'b'],
    );
  });
});
