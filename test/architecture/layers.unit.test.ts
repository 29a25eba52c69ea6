// The import direction of docs/ARCHITECTURE.md ("Layers and the imports each may make"), enforced:
// composition on top, then areas, engines, the HTTP framework and the foundation; route files are
// imported only by src/routes.ts and their own folder; no two files of src/ import each other.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

interface Import {
  from: string;
  to: string;
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => path.join(dir, f).split(path.sep).join('/'));
}

function importsOf(file: string): Import[] {
  const text = fs.readFileSync(file, 'utf8');
  const out: Import[] = [];
  for (const m of text.matchAll(/^(?:import|export)\s+(type\s+)?[^'";]*?from\s+'(\.[^']+)'/gms)) {
    const to = path.posix.normalize(path.posix.join(path.posix.dirname(file), m[2]!)).replace(/\.js$/, '.ts');
    out.push({ from: file, to, typeOnly: m[1] !== undefined });
  }
  return out;
}

const files = sourceFiles('src');
const imports = files.flatMap(importsOf);

const COMPOSITION = [
  /^src\/(main|server|workerMain|apiMain|routes)\.ts$/,
  /^src\/temporal\/(worker\.ts|activities\/)/,
  /^src\/cli\//,
  /^src\/runtime\//,
];
const FOUNDATION = [
  /^src\/(errors|config|shared|llm|db|auth)\//,
  /^src\/ops\/(health|metrics)\.ts$/,
  /^src\/temporal\/connection\.ts$/,
];
const ENGINES = [/^src\/extractor\//, /^src\/briefing\//, /^src\/bridges\/translate\//];
const ROUTE_FILE = /^src\/[^/]+\/(.+\/)?(routes|[a-zA-Z]+Routes)\.ts$/;
const is = (patterns: RegExp[], file: string) => patterns.some((p) => p.test(file));
const show = (i: Import) => `${i.from} imports ${i.to}`;

/** What ops status reports of the process: type-only leaves of runtime/ that areas may name. */
const RUNTIME_TYPE_LEAVES = new Set(['src/runtime/parts.ts', 'src/runtime/supervisor.ts']);

/** File cycles kept, each with its reason. */
const CYCLES_KEPT = new Set([
  // The connector registry names each connector; each connector names the registry's Connector type (type only).
  'src/connections/connectors/feed.ts src/connections/connectors/githubIssues.ts src/connections/connectors/httpJson.ts ' +
    'src/connections/connectors/index.ts src/connections/connectors/notionPages.ts',
  // Local engine start-up falls back to Testcontainers, which returns the same Endpoints type (type only).
  'src/runtime/services.ts src/runtime/testcontainers.ts',
]);

describe('import direction (docs/ARCHITECTURE.md)', () => {
  it('only composition imports composition (runtime leaves by type only)', () => {
    const bad = imports.filter(
      (i) =>
        !is(COMPOSITION, i.from) &&
        is(COMPOSITION, i.to) &&
        !(RUNTIME_TYPE_LEAVES.has(i.to) && (i.typeOnly || i.to === 'src/runtime/parts.ts')),
    );
    assert.deepEqual(bad.map(show), []);
  });

  it('the foundation imports only the foundation', () => {
    const bad = imports.filter((i) => is(FOUNDATION, i.from) && !is(FOUNDATION, i.to));
    assert.deepEqual(bad.map(show), []);
  });

  it('engines do no I/O of their own: no db, temporal, runtime, and no route, service or store file', () => {
    const bad = imports.filter(
      (i) =>
        is(ENGINES, i.from) &&
        (/^src\/(db|temporal|runtime)\//.test(i.to) ||
          /\/(routes|service|store)\.ts$/.test(i.to) ||
          ROUTE_FILE.test(i.to)),
    );
    assert.deepEqual(bad.map(show), []);
  });

  it('the HTTP framework imports only the foundation (its deps bag names the process parts by type)', () => {
    const bad = imports.filter(
      (i) =>
        i.from.startsWith('src/http/') &&
        !i.to.startsWith('src/http/') &&
        i.to !== 'src/ops/httpMetrics.ts' && // the metrics middleware, HTTP's own part kept beside the other metrics
        !is(FOUNDATION, i.to) &&
        !(i.from === 'src/http/deps.ts' && i.typeOnly) &&
        // Kept for now: the Koa app mounts the MCP endpoint and the console's static page itself (the
        // console middleware reads only its bundle); mounting both from src/server.ts would end this.
        !(i.from === 'src/http/app.ts' && (i.to === 'src/mcp/http.ts' || i.to === 'src/console/serve.ts')),
    );
    assert.deepEqual(bad.map(show), []);
  });

  it('route files are imported only by src/routes.ts and route files of their own folder', () => {
    const bad = imports.filter(
      (i) =>
        ROUTE_FILE.test(i.to) &&
        i.from !== 'src/routes.ts' &&
        !(ROUTE_FILE.test(i.from) && path.posix.dirname(i.from) === path.posix.dirname(i.to)),
    );
    assert.deepEqual(bad.map(show), []);
  });

  it('no two files of src/ import each other, directly or through others (kept cycles listed)', () => {
    const graph = new Map<string, string[]>();
    for (const i of imports) graph.set(i.from, [...(graph.get(i.from) ?? []), i.to]);
    // Tarjan's strongly connected components.
    let index = 0;
    const stack: string[] = [];
    const onStack = new Set<string>();
    const idx = new Map<string, number>();
    const low = new Map<string, number>();
    const cycles: string[] = [];
    const visit = (v: string): void => {
      idx.set(v, index);
      low.set(v, index);
      index += 1;
      stack.push(v);
      onStack.add(v);
      for (const w of graph.get(v) ?? []) {
        if (!idx.has(w)) {
          visit(w);
          low.set(v, Math.min(low.get(v)!, low.get(w)!));
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
      }
      if (low.get(v) === idx.get(v)) {
        const component: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          component.push(w);
        } while (w !== v);
        if (component.length > 1) cycles.push(component.sort().join(' '));
      }
    };
    for (const f of files) if (!idx.has(f)) visit(f);
    assert.deepEqual(
      cycles.filter((c) => !CYCLES_KEPT.has(c)),
      [],
    );
  });
});
