import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { EngineSupervisor } from '../../src/runtime/supervisor.js';

/** A stand-in engine: a node child that prints ready, then lives for lifeMs (or until killed). */
function launchToy(lifeMs: number): () => Promise<ChildProcess> {
  return () =>
    new Promise((resolve, reject) => {
      const child = spawn(
        process.execPath,
        ['-e', `console.log('ready'); setTimeout(() => process.exit(3), ${lifeMs})`],
        { stdio: ['ignore', 'pipe', 'ignore'] },
      );
      child.stdout?.once('data', () => resolve(child));
      child.once('error', reject);
    });
}

const stopToy = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

const until = async (check: () => boolean, ms: number) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('EngineSupervisor', () => {
  it('restarts a killed engine with backoff and counts the restart', async () => {
    const lines: string[] = [];
    const s = new EngineSupervisor('toy', launchToy(60_000), stopToy, (l) => lines.push(l), {
      maxRestarts: 3,
      windowMs: 60_000,
      backoffMs: 50,
      maxBackoffMs: 200,
    });
    await s.start();
    const first = s.status().pid;
    process.kill(first!, 'SIGKILL');
    await until(() => s.status().restarts === 1 && s.status().state === 'running', 5_000);
    assert.notEqual(s.status().pid, first);
    assert.equal(s.status().last_exit?.signal, 'SIGKILL');
    assert.ok(lines.some((l) => l.includes('toy exited unexpectedly (signal SIGKILL)')));
    await s.stop();
    assert.equal(s.status().state, 'stopped');
  });

  it('gives up on a crash loop after the bounded number of tries, with a clear message', async () => {
    const lines: string[] = [];
    const s = new EngineSupervisor('toy', launchToy(30), stopToy, (l) => lines.push(l), {
      maxRestarts: 2,
      windowMs: 60_000,
      backoffMs: 20,
      maxBackoffMs: 100,
    });
    await s.start();
    await until(() => s.status().state === 'failed', 10_000);
    assert.equal(s.status().restarts, 2);
    assert.match(s.status().message ?? '', /toy failed 3 times within 1 min; not restarting it again/);
    assert.ok(lines.some((l) => l.includes('not restarting it again')));
    await s.stop();
  });

  it('does not restart an engine that exits after halt (Ctrl+C reaches the children too)', async () => {
    const s = new EngineSupervisor('toy', launchToy(60_000), stopToy, () => undefined, {
      maxRestarts: 3,
      windowMs: 60_000,
      backoffMs: 10,
      maxBackoffMs: 10,
    });
    await s.start();
    s.halt();
    process.kill(s.status().pid!, 'SIGINT');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(s.status().restarts, 0);
    assert.equal(s.status().pid, null);
    await s.stop();
    assert.equal(s.status().state, 'stopped');
  });
});
