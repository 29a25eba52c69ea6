#!/usr/bin/env node
// Re-adds the @swc/core platform packages that this machine's registry mirror lacks, so that
// `npm ci` accepts the lock file (they are optional and skipped on this platform anyway).
import fs from 'node:fs';
const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8'));
const core = lock.packages['node_modules/@swc/core'];
if (core) {
  for (const name of Object.keys(core.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    if (lock.packages[key]) continue;
    const m = /core-(darwin|linux|win32)-([a-z0-9]+)/.exec(name);
    const cpu = m[2] === 'arm' ? 'arm' : m[2];
    lock.packages[key] = {
      version: core.version,
      cpu: [cpu],
      license: 'Apache-2.0 AND MIT',
      optional: true,
      os: [m[1]],
      engines: { node: '>=10' },
    };
  }
  const sorted = {};
  for (const k of Object.keys(lock.packages).sort((a, b) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)))
    sorted[k] = lock.packages[k];
  lock.packages = sorted;
  fs.writeFileSync('package-lock.json', JSON.stringify(lock, null, 2) + '\n');
}
