import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { fingerprint, keyId, open, scrub, seal } from '../../src/connections/secrets.js';
import { ApiError } from '../../src/errors/catalogue.js';
import { loadConfig } from '../../src/config/config.js';

describe('connection secrets', () => {
  const key = crypto.randomBytes(32);
  const config = { key, previousKeys: [] };
  const token = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';

  it('seals with AES-256-GCM bound to project and connection; the ciphertext does not open elsewhere or when altered', () => {
    const sealed = seal(config, 'p1', 'c1', token);
    assert.notEqual(sealed.ciphertext, Buffer.from(token).toString('base64'));
    assert.equal(open(config, 'p1', 'c1', sealed), token);
    assert.throws(() => open(config, 'p2', 'c1', sealed));
    assert.throws(() => open(config, 'p1', 'c2', sealed));
    const tampered = {
      ...sealed,
      ciphertext: Buffer.from(Buffer.from(sealed.ciphertext, 'base64').map((b, i) => (i === 0 ? b ^ 1 : b))).toString(
        'base64',
      ),
    };
    assert.throws(() => open(config, 'p1', 'c1', tampered));
    assert.notEqual(seal(config, 'p1', 'c1', token).iv, sealed.iv, 'a fresh IV every time');
  });

  it('rotation: a secret sealed under an older key opens while that key is listed as previous, and names its key_id', () => {
    const sealed = seal(config, 'p1', 'c1', token);
    assert.equal(sealed.key_id, keyId(key));
    const rotated = { key: crypto.randomBytes(32), previousKeys: [key] };
    assert.equal(open(rotated, 'p1', 'c1', sealed), token);
    assert.throws(
      () => open({ key: rotated.key, previousKeys: [] }, 'p1', 'c1', sealed),
      (e: unknown) => e instanceof ApiError && e.code === 'secrets_unavailable',
    );
  });

  it('the fingerprint is a keyed HMAC prefix: stable for a token, different for another, no piece of the token', () => {
    const f = fingerprint(config, token);
    assert.match(f, /^hmac:[0-9a-f]{16}$/);
    assert.equal(fingerprint(config, token), f);
    assert.notEqual(fingerprint(config, `${token}x`), f);
    assert.notEqual(fingerprint({ key: crypto.randomBytes(32), previousKeys: [] }, token), f);
    // Windows of 8: the token holds hex runs ('abcdef', '0123456789'), and a random 16-hex fingerprint holds one of
    // its 4-character windows by chance about once in 500 runs; an 8-character one about once in 10^8.
    for (let i = 0; i + 8 <= token.length; i += 1) assert.ok(!f.includes(token.slice(i, i + 8)), token.slice(i, i + 8));
  });

  it('without a key nothing is sealed (secrets_unavailable), and a malformed GKS_SECRETS_KEY fails at start', () => {
    assert.throws(
      () => seal({ key: null, previousKeys: [] }, 'p', 'c', token),
      (e: unknown) => e instanceof ApiError && e.code === 'secrets_unavailable',
    );
    assert.throws(() => loadConfig({ GKS_SECRETS_KEY: 'too-short' }), /GKS_SECRETS_KEY/);
    assert.equal(loadConfig({ GKS_SECRETS_KEY: key.toString('base64') }).secrets.key?.equals(key), true);
  });

  it('scrub removes the token in raw, URL-encoded and base64 forms', () => {
    const t = 'a+b/c=d_secret';
    const text = `bad ${t} and ${encodeURIComponent(t)} and ${Buffer.from(t).toString('base64')}`;
    const out = scrub(text, t);
    assert.ok(
      !out.includes(t) && !out.includes(encodeURIComponent(t)) && !out.includes(Buffer.from(t).toString('base64')),
    );
    assert.equal(out.split('[redacted]').length, 4);
  });
});
