import assert from 'node:assert/strict';
import { ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { newTenant } from '../support/api.js';
import { closeClients, httpClient, ok } from './support.js';

describe('MCP resources and prompts', function () {
  afterEach(closeClients);
  this.timeout(120_000);

  it('lists the ontology and each saved slice; reading a slice compiles it; a new slice notifies list changed', async () => {
    const t = await newTenant(0);
    await t.post('/v1/memories', { content: 'The billing service retries invoices three times.' });
    const client = await httpClient(t.key);
    let changed = 0;
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      changed += 1;
    });
    const before = (await client.listResources()).resources.map((r) => r.uri);
    assert.deepEqual(before, ['gks://ontology']);
    const ontology = await client.readResource({ uri: 'gks://ontology' });
    const first = ontology.contents[0] as { text: string; mimeType: string };
    assert.equal(first.mimeType, 'application/json');
    assert.ok(JSON.parse(first.text), 'the ontology as JSON');

    const created = await t.post('/v1/slices', { name: 'billing', planes: ['memory'], query: 'billing invoices' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    for (let i = 0; i < 50 && changed === 0; i++) await new Promise((r) => setTimeout(r, 100));
    assert.ok(changed >= 1, 'resources/list_changed after a slice was saved');
    const after = (await client.listResources()).resources.map((r) => r.uri);
    assert.deepEqual(after, ['gks://ontology', 'gks://slices/billing']);
    const pack = await client.readResource({ uri: 'gks://slices/billing' });
    const body = JSON.parse((pack.contents[0] as { text: string }).text) as { markdown: string; slice: { id: string } };
    assert.match(body.markdown, /billing service retries invoices/);
    assert.equal(body.slice.id, created.body.id);
    await assert.rejects(client.readResource({ uri: 'gks://slices/nothing-here' }), /no committed slice named/);
    const templates = (await client.listResourceTemplates()).resourceTemplates.map((r) => r.uriTemplate);
    assert.deepEqual(templates, ['gks://slices/{name}', 'gks://packs/{id}']);
    await client.close();
  });

  it('the briefing prompt carries the compiled evidence; review_delta carries the delta and its preflight verdict', async () => {
    const t = await newTenant(0);
    await t.post('/v1/memories', { content: 'The release train leaves every second Thursday.' });
    const staged = await t.post('/v1/memories', { content: 'Hotfixes skip the release train.', apply: false });
    const client = await httpClient(t.key);
    const names = (await client.listPrompts()).prompts.map((p) => p.name).sort();
    assert.deepEqual(names, ['briefing', 'review_delta']);
    const briefing = await client.getPrompt({
      name: 'briefing',
      arguments: { subject: 'release train', budget: '500' },
    });
    const briefingText = (briefing.messages[0]!.content as { text: string }).text;
    assert.match(briefingText, /Write a briefing on "release train"/);
    assert.match(briefingText, /leaves every second Thursday/);
    assert.doesNotMatch(briefingText, /Hotfixes skip/, 'staged memories are not evidence');
    const review = await client.getPrompt({ name: 'review_delta', arguments: { delta_id: staged.body.delta_id } });
    const reviewText = (review.messages[0]!.content as { text: string }).text;
    assert.match(reviewText, new RegExp(`Review delta ${staged.body.delta_id}`));
    assert.match(reviewText, /Hotfixes skip the release train/);
    assert.match(reviewText, /Preflight verdict:/);
    await assert.rejects(client.getPrompt({ name: 'briefing', arguments: { subject: 'x', budget: 'lots' } }), /budget/);
    await client.close();
    // A key without context:read or deltas:read is offered neither prompt.
    const reader = await httpClient(await t.keyWith({ scopes: ['memories:read'] }));
    assert.deepEqual((await reader.listPrompts()).prompts, []);
    assert.deepEqual((await reader.listResources()).resources, []);
    await reader.close();
    const again = await httpClient(t.key);
    await ok(again, 'recall', { query: 'session still fine' });
    await again.close();
  });
});
