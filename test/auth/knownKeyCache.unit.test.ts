import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { KnownKeyCache, type AuthContext } from '../../src/auth/keys.js';

const hash = (secret: string) => crypto.createHash('sha256').update(secret).digest();
const auth = (keyId: string): AuthContext => ({
  keyId,
  organizationId: 'org',
  projectId: 'project',
  scopes: ['memories:read'],
  writes: 'apply',
});

describe('KnownKeyCache', () => {
  it('finds a key only with its own secret', () => {
    const cache = new KnownKeyCache();
    cache.remember('lookup000001', hash('right'), auth('k1'));
    assert.equal(cache.find('lookup000001', hash('right'))?.keyId, 'k1');
    assert.equal(cache.find('lookup000001', hash('wrong')), undefined);
    assert.equal(cache.find('lookup000002', hash('right')), undefined);
  });

  it('gives each request its own copy of the key context', () => {
    const cache = new KnownKeyCache();
    const looked = auth('k1');
    cache.remember('lookup000001', hash('right'), looked);
    looked.scopes.push('admin');
    const first = cache.find('lookup000001', hash('right'))!;
    first.scopes.push('admin');
    first.projectId = 'other';
    assert.deepEqual(cache.find('lookup000001', hash('right')), auth('k1'));
  });

  it('forgets a key when told and when its time is up', async () => {
    const cache = new KnownKeyCache(20);
    cache.remember('a', hash('s'), auth('ka'));
    cache.remember('b', hash('s'), auth('kb'));
    cache.forget('a');
    assert.equal(cache.find('a', hash('s')), undefined);
    assert.equal(cache.find('b', hash('s'))?.keyId, 'kb');
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(cache.find('b', hash('s')), undefined);
    assert.equal(cache.size, 0);
  });

  it('holds at most its bound, dropping the key remembered longest ago', () => {
    const cache = new KnownKeyCache(60_000, 3);
    for (const name of ['a', 'b', 'c', 'd']) cache.remember(name, hash(name), auth(name));
    assert.equal(cache.size, 3);
    assert.equal(cache.find('a', hash('a')), undefined);
    assert.equal(cache.find('d', hash('d'))?.keyId, 'd');
  });
});
