// Mocha root hooks: one set of real services for the whole run.
import { startHarness, stopHarness } from './harness.js';

export const mochaHooks = {
  async beforeAll(this: { timeout(ms: number): void }) {
    this.timeout(1_200_000); // first run may provision Neo4j and build the temporal CLI
    await startHarness();
  },
  async afterAll(this: { timeout(ms: number): void }) {
    this.timeout(120_000);
    await stopHarness();
  },
};
