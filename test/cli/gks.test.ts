import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { call } from '../support/api.js';
import { harness, neo4jEnv } from '../support/harness.js';

const run = promisify(execFile);

async function gks(...args: string[]): Promise<Record<string, unknown>> {
  const { endpoints } = harness();
  const { stdout } = await run('node', ['bin/gks.js', ...args, '--json'], {
    env: { ...process.env, ...neo4jEnv(), TEMPORAL_ADDRESS: endpoints.temporalAddress },
  });
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe('gks command line', () => {
  it('creates an organization, a project and a key that the API accepts, then revokes it', async () => {
    const org = await gks('org', 'create', 'CLI org');
    const project = await gks('project', 'create', '--org', String(org.id), 'CLI project');
    const key = await gks(
      'key',
      'create',
      '--project',
      String(project.id),
      '--scope',
      'memories:read',
      '--scope',
      'credits:read',
      '--name',
      'cli',
    );
    assert.match(String(key.key), /^gks_/);
    assert.deepEqual(key.scopes, ['memories:read', 'credits:read']);
    const ok = await call('GET', '/v1/project', undefined, { key: String(key.key) });
    assert.equal(ok.body.project.id, project.id);
    const granted = await gks('credits', 'grant', '--org', String(org.id), '250');
    assert.equal(granted.balance, 250);
    const credits = await call('GET', '/v1/credits', undefined, { key: String(key.key) });
    assert.equal(credits.body.balance, 250);
    const list = await gks('key', 'list', '--org', String(org.id));
    assert.equal((list.keys as unknown[]).length, 1);
    assert.ok(!JSON.stringify(list).includes(String(key.key)), 'key list never shows the secret');
    await gks('key', 'revoke', String(key.id));
    assert.equal((await call('GET', '/v1/project', undefined, { key: String(key.key) })).status, 401);
  });

  it('an organization key requires --org or --project and says so', async () => {
    await assert.rejects(
      run('node', ['bin/gks.js', 'key', 'create'], {
        env: { ...process.env, ...neo4jEnv() },
      }),
      /exactly one of --project/,
    );
  });
});
