// The Temporal rule in eslint.config.js: workflow files import no Node built-ins and no activity
// implementations (types only). Lints probe sources as if they were files under workflows/.
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
// @ts-expect-error -- tools/lint is plain JavaScript with its own node_modules and no type declarations
import { ESLint } from '../../tools/lint/index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface LintMessage {
  ruleId: string | null;
  message: string;
}

async function lintAs(file: string, code: string): Promise<LintMessage[]> {
  const eslint = new ESLint({ cwd: root });
  const [result] = (await eslint.lintText(code, { filePath: path.join(root, file) })) as { messages: LintMessage[] }[];
  return (result?.messages ?? []).filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports');
}

describe('lint: Temporal workflow imports', function () {
  this.timeout(60_000);

  it('refuses a Node built-in in a workflow, with or without the node: prefix', async () => {
    const prefixed = await lintAs('workflows/probe.ts', "import fs from 'node:fs';\nexport const f = fs;\n");
    const bare = await lintAs('workflows/probe.ts', "import crypto from 'crypto';\nexport const c = crypto;\n");
    assert.equal(prefixed.length, 1);
    assert.match(prefixed[0]!.message, /Node built-ins/);
    assert.equal(bare.length, 1);
  });

  it('refuses an activity implementation but accepts its types', async () => {
    const value = await lintAs(
      'workflows/probe.ts',
      "import { createLoopActivities } from '../src/loops/activities.js';\nexport const a = createLoopActivities;\n",
    );
    const typeOnly = await lintAs(
      'workflows/probe.ts',
      "import type { LoopActivities } from '../src/loops/activities.js';\nexport type A = LoopActivities;\n",
    );
    assert.equal(value.length, 1);
    assert.match(value[0]!.message, /only types/);
    assert.deepEqual(typeOnly, []);
  });

  it('leaves the same imports alone outside workflows/', async () => {
    assert.deepEqual(await lintAs('src/probe.ts', "import fs from 'node:fs';\nexport const f = fs;\n"), []);
  });
});
