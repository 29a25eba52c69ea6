// The Node floor in package.json is true: every locked package (and the lint tools' lock) accepts the
// lowest Node the floor allows, so a dependency that needs a newer Node cannot slip in unnoticed
// (.npmrc sets engine-strict, so npm ci would refuse it on an older Node as well).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import semver from 'semver';

interface Lock {
  packages: Record<string, { engines?: { node?: string } | string[] }>;
}

function tooNew(lockFile: string, floor: string): string[] {
  const lock = JSON.parse(fs.readFileSync(lockFile, 'utf8')) as Lock;
  return Object.entries(lock.packages)
    .filter(([, p]) => !Array.isArray(p.engines) && typeof p.engines?.node === 'string')
    .filter(([, p]) => !semver.satisfies(floor, (p.engines as { node: string }).node))
    .map(([name, p]) => `${name} needs node ${(p.engines as { node: string }).node}`);
}

describe('Node version floor', () => {
  const range = (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { engines: { node: string } }).engines.node;
  const floor = semver.minVersion(range)?.version ?? '';

  it('is 20.19.0, and the Node running the tests meets it', () => {
    assert.equal(floor, '20.19.0');
    assert.ok(semver.satisfies(process.versions.node, range), `${process.versions.node} does not satisfy ${range}`);
  });

  it('every package in both lock files accepts the floor', () => {
    assert.deepEqual([...tooNew('package-lock.json', floor), ...tooNew('tools/lint/package-lock.json', floor)], []);
  });

  it('testcontainers resolves to an undici that runs on Node 20', () => {
    const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8')) as Lock & {
      packages: Record<string, { version?: string }>;
    };
    const undici =
      lock.packages['node_modules/undici'] ?? lock.packages['node_modules/testcontainers/node_modules/undici'];
    assert.ok(undici?.version, 'undici is in the lock');
    assert.equal(semver.major(undici.version), 7);
  });
});
