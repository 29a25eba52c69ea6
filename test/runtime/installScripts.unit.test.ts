// A newcomer's `npm ci` ends clean: every locked dependency that carries an install script has a decision
// (approved or denied) in package.json's allowScripts, so npm 11 lists nothing as skipped and unreviewed
// (docs/development.md, "Lock file").
import assert from 'node:assert/strict';
import fs from 'node:fs';

interface Lock {
  packages: Record<string, { hasInstallScript?: boolean }>;
}

/** The package names (not paths) in a lock file whose packages run an install script. */
function withInstallScripts(lockFile: string): string[] {
  const lock = JSON.parse(fs.readFileSync(lockFile, 'utf8')) as Lock;
  const names = Object.entries(lock.packages)
    .filter(([path, p]) => path !== '' && p.hasInstallScript === true)
    .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
  return [...new Set(names)].sort();
}

function decided(packageFile: string): Record<string, boolean> {
  return (
    (JSON.parse(fs.readFileSync(packageFile, 'utf8')) as { allowScripts?: Record<string, boolean> }).allowScripts ?? {}
  );
}

describe('dependency install scripts', () => {
  it('every locked dependency with an install script has an allowScripts decision', () => {
    const allow = decided('package.json');
    const undecided = withInstallScripts('package-lock.json').filter((name) => !(name in allow));
    assert.deepEqual(undecided, [], 'run `npm install-scripts ls`, read each script, then approve or deny it');
  });

  it('the lint tools lock no dependency with an install script', () => {
    assert.deepEqual(withInstallScripts('tools/lint/package-lock.json'), []);
  });

  it('no decision names a package the lock no longer holds', () => {
    const locked = new Set(withInstallScripts('package-lock.json'));
    assert.deepEqual(
      Object.keys(decided('package.json')).filter((name) => !locked.has(name.replace(/(.)@.*$/, '$1'))),
      [],
    );
  });
});
