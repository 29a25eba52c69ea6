// `gks cypher`: the terminal client knowledge engineers use on the local engine. One-shot (-e) prints
// a table, the shell reads statements ending with ";" from standard input, parameters come from
// --param or :param, and statements split only at semicolons outside strings and comments.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { splitStatements } from '../../src/cli/statements.js';
import { neo4jEnv } from '../support/harness.js';

const run = promisify(execFile);
const env = () => ({ ...process.env, ...neo4jEnv() });

function shell(input: string): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('node', ['bin/gks.js', 'cypher'], { env: env(), stdio: ['pipe', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout }));
    child.stdin.end(input);
  });
}

describe('gks cypher', function () {
  this.timeout(60_000);

  it('splits statements at semicolons outside strings, quoted names and comments', () => {
    const { statements, rest } = splitStatements("RETURN 'a;b' AS `x;y`; // c;\nRETURN 2 /* ; */;\nMATCH (n)");
    assert.deepEqual(statements, ["RETURN 'a;b' AS `x;y`", '// c;\nRETURN 2 /* ; */']);
    assert.equal(rest.trim(), 'MATCH (n)');
    assert.deepEqual(splitStatements('// only a comment\n'), { statements: [], rest: '' });
  });

  it('-e runs one statement with a parameter and prints a table', async () => {
    const { stdout } = await run(
      'node',
      ['bin/gks.js', 'cypher', '-e', 'RETURN $n + 1 AS answer, $s AS text', '--param', 'n=41', '--param', 's=hello'],
      { env: env() },
    );
    assert.match(stdout, /\| answer \| text {2}\|/);
    assert.match(stdout, /\| 42 {5}\| hello \|/);
    assert.match(stdout, /^1 row in \d+ ms$/m);
  });

  it('a query given as the one argument runs like -e (as in cypher-shell); two arguments are refused with the usage', async () => {
    const { stdout } = await run('node', ['bin/gks.js', 'cypher', 'RETURN 6 * 7 AS answer'], { env: env() });
    assert.match(stdout, /\| 42 {5}\|/);
    await assert.rejects(
      run('node', ['bin/gks.js', 'cypher', 'RETURN', '1'], { env: env() }),
      (e: { stderr?: string }) => /one query at a time.*\n.*usage: gks cypher/s.test(e.stderr ?? ''),
    );
  });

  it('the shell runs statements from standard input, with :param, and reports errors without stopping', async () => {
    const { code, stdout } = await shell(
      ':param who="Ada"\nRETURN $who\n  AS name;\nRETURN nope;\nRETURN 7 AS seven;\n',
    );
    assert.match(stdout, /\| Ada {2}\|/);
    assert.match(stdout, /error: Variable `nope` not defined/);
    assert.match(stdout, /\| 7 {5}\|/);
    assert.equal(code, 1, 'a failed statement makes the exit code 1');
  });

  it('piped input that ends without a semicolon runs its last statement (echo "MATCH ..." | gks cypher)', async () => {
    const { code, stdout } = await shell('RETURN 1 AS one;\nRETURN 8 AS eight');
    assert.match(stdout, /\| 1 {3}\|/);
    assert.match(stdout, /\| 8 {5}\|/);
    assert.equal(code, 0);
  });

  it('says where it tried when Neo4j is not reachable', async () => {
    await assert.rejects(
      run('node', ['bin/gks.js', 'cypher', '-e', 'RETURN 1'], {
        env: { ...process.env, NEO4J_URI: 'bolt://127.0.0.1:9' },
      }),
      (e: { stderr?: string }) => /Neo4j is not reachable at bolt:\/\/127\.0\.0\.1:9/.test(e.stderr ?? ''),
    );
  });

  it('says the login was refused (and where the local password is) when the password is wrong', async () => {
    await assert.rejects(
      run('node', ['bin/gks.js', 'cypher', '-e', 'RETURN 1'], {
        env: { ...process.env, ...neo4jEnv(), NEO4J_USER: 'neo4j', NEO4J_PASSWORD: 'wrong-password' },
      }),
      (e: { stderr?: string }) => /refused the login of user neo4j.*\.data\/neo4j-password/.test(e.stderr ?? ''),
    );
  });
});
