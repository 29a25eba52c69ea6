// Mocha root hooks: one set of real services for the whole run. Every response the API sends during
// the run is checked against the published OpenAPI document (src/http/responseAudit.ts); the run
// fails if any violated it (naming the test that caused it), and with GKS_AUDIT_LIST_UNEXERCISED=1
// lists the operations no test exercised with a success status.
import { startHarness, stopHarness } from './harness.js';
import { startResponseAudit } from '../../src/http/responseAudit.js';

const audit = startResponseAudit();
let attributed = 0;

export const mochaHooks = {
  async beforeAll(this: { timeout(ms: number): void }) {
    this.timeout(1_200_000); // first run may provision Neo4j and build the temporal CLI
    await startHarness();
  },
  afterEach(this: { currentTest?: { fullTitle(): string } }) {
    for (const v of audit.violations.slice(attributed)) v.test ??= this.currentTest?.fullTitle();
    attributed = audit.violations.length;
  },
  async afterAll(this: { timeout(ms: number): void }) {
    this.timeout(120_000);
    await stopHarness();
    const unexercised = audit.unexercised();
    process.stdout.write(
      `  [response audit] ${audit.checked} responses checked against the OpenAPI document; ${unexercised.length} operation(s) without a success response in this run\n`,
    );
    if (process.env.GKS_AUDIT_LIST_UNEXERCISED === '1' && unexercised.length > 0)
      process.stdout.write(`    ${unexercised.join('\n    ')}\n`);
    if (audit.violations.length > 0) throw new Error(`[response audit] ${audit.summary()}`);
  },
};
