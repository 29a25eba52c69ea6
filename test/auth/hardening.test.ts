import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { issueKey } from '../../src/auth/keys.js';
import { grantCredits } from '../../src/credits/service.js';
import { devCredentialLines, ensureDevCredentials } from '../../src/runtime/devCredentials.js';
import { createProject } from '../../src/tenancy/service.js';
import { call, newTenant } from '../support/api.js';
import { harness } from '../support/harness.js';
import { createDocument, waitForLoop, startExtraction } from '../loops/support.js';

describe('keys, development credentials and the credit ledger', function () {
  this.timeout(180_000);

  it('a key created without scopes gets every scope but admin; admin must be asked for', async () => {
    const t = await newTenant(0);
    const graph = harness().service.deps.graph;
    const plain = await issueKey(graph, { organizationId: t.organizationId, projectId: t.projectId });
    assert.ok(!plain.scopes.includes('admin'));
    assert.ok(plain.scopes.includes('memories:write') && plain.scopes.includes('loops:run'));
    const admin = await issueKey(graph, {
      organizationId: t.organizationId,
      projectId: t.projectId,
      scopes: ['admin'],
    });
    assert.deepEqual(admin.scopes, ['admin']);
  });

  it('the development key is printed only when it was just created', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gks-dev-'));
    try {
      const graph = harness().service.deps.graph;
      const first = await ensureDevCredentials(graph, dir);
      assert.equal(first.created, true);
      const shown = devCredentialLines(first.credentials, first.created, path.join(dir, 'dev-credentials.json')).join(
        '\n',
      );
      assert.ok(shown.includes(first.credentials.key));
      const again = await ensureDevCredentials(graph, dir);
      assert.equal(again.created, false);
      const hidden = devCredentialLines(again.credentials, again.created, path.join(dir, 'dev-credentials.json')).join(
        '\n',
      );
      assert.ok(!hidden.includes(again.credentials.key), hidden);
      assert.ok(hidden.includes('dev-credentials.json'));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a project key reads its project's credit entries and the balance, never another project's or the organization's grants", async () => {
    const t = await newTenant(100);
    const graph = harness().service.deps.graph;
    const other = await createProject(graph, t.organizationId, 'other project');
    const otherKey = await issueKey(graph, {
      organizationId: t.organizationId,
      projectId: String(other.id),
      name: 'other',
    });
    const doc = await createDocument(t, 'Grace Hopper works for Remington Rand.');
    const started = { body: await startExtraction(t, doc, { goal: 'people', loop: { max_iterations: 1 } }) };
    await waitForLoop(t, started.body.loop_id);
    await grantCredits(graph, t.organizationId, 5, 'top-up');

    const mine = await t.get('/v1/credits');
    assert.equal(mine.status, 200);
    assert.ok(mine.body.entries.length >= 2, JSON.stringify(mine.body));
    assert.ok(
      mine.body.entries.every((e: { loop_id: string | null }) => e.loop_id === started.body.loop_id),
      JSON.stringify(mine.body.entries),
    );
    const theirs = await call('GET', '/v1/credits', undefined, { key: otherKey.key });
    assert.equal(theirs.status, 200);
    assert.deepEqual(theirs.body.entries, []);
    assert.equal(theirs.body.balance, mine.body.balance);
    const orgKey = await t.keyWith({ organization: true, scopes: ['credits:read'] });
    const all = await call('GET', '/v1/credits', undefined, { key: orgKey });
    assert.ok(
      all.body.entries.some((e: { kind: string; reason: string }) => e.kind === 'grant' && e.reason === 'top-up'),
    );
  });

  it("addedByName is always a string: the key name, or the key's public lookup id for an unnamed key", async () => {
    const t = await newTenant(0);
    const unnamed = await t.keyWith({ scopes: ['documents:write', 'documents:read'] });
    const created = await call(
      'POST',
      '/v1/documents',
      { content: 'Unnamed keys write too.', title: 'Unnamed' },
      { key: unnamed },
    );
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const named = await t.post('/v1/documents', { content: 'Named keys write too.', title: 'Named' });
    assert.equal(named.status, 201);
    const list = await t.get('/v1/documents');
    const byTitle = new Map(
      list.body.sources.map((d: { title: string; addedByName: unknown }) => [d.title, d.addedByName]),
    );
    assert.equal(byTitle.get('Named'), 'test');
    assert.equal(byTitle.get('Unnamed'), unnamed.slice(0, 'gks_'.length + 12));
  });

  it('a non-empty memory search with no indexable terms finds nothing instead of the latest memories', async () => {
    const t = await newTenant(0);
    const created = await t.post('/v1/memories', { content: 'Ada prefers tea.' });
    assert.equal(created.status, 201);
    const reply = await t.post('/v1/memories/search', { query: '!!! ??? ---' });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.equal(reply.body.count, 0);
    assert.deepEqual(reply.body.nodes, []);
    const all = await t.post('/v1/memories/search', {});
    assert.equal(all.body.count, 1);
  });
});
