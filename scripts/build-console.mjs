// Bundles the review console (console/) into console/dist/ with esbuild: one ES module, one stylesheet,
// the page. Run by `npm run build:console`, before `npm start` and the tests (prestart/pretest), and by
// the service itself when dist/ is missing or older than a source. No network, no CDN.
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'console');

export async function buildConsole(dir = root) {
  const out = path.join(dir, 'dist');
  fs.mkdirSync(out, { recursive: true });
  await build({
    entryPoints: [path.join(dir, 'src', 'main.ts')],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    sourcemap: false,
    outfile: path.join(out, 'app.js'),
    logLevel: 'warning',
  });
  fs.copyFileSync(path.join(dir, 'app.css'), path.join(out, 'app.css'));
  fs.copyFileSync(path.join(dir, 'index.html'), path.join(out, 'index.html'));
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const out = await buildConsole();
  process.stdout.write(`console bundle written to ${path.relative(process.cwd(), out)}\n`);
}
