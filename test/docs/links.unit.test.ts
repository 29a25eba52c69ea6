// Every relative link in README.md and docs/ points at a file that exists, and a link to a heading
// (#anchor) at a heading that exists in that file (GitHub's heading slugs), so the docs cannot rot
// silently when files move.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

const root = process.cwd();

function markdownFiles(): string[] {
  const docs = fs.existsSync(path.join(root, 'docs'))
    ? fs
        .readdirSync(path.join(root, 'docs'), { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.md'))
        .map((f) => path.join('docs', f))
    : [];
  return ['README.md', ...docs];
}

/** GitHub's heading anchor: lower case, punctuation other than - and _ dropped, spaces to -. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchors(file: string): Set<string> {
  const text = fs.readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of text.matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

function links(file: string): string[] {
  const text = fs.readFileSync(path.join(root, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);
}

describe('documentation links', () => {
  it('every relative link in README.md and docs/ resolves to a file, and every #anchor to a heading in it', () => {
    const broken: string[] = [];
    for (const file of markdownFiles()) {
      for (const link of links(file)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // http:, https:, mailto:
        const [target, anchor] = link.split('#') as [string, string | undefined];
        const resolved =
          target === '' ? path.join(root, file) : path.resolve(path.dirname(path.join(root, file)), target);
        if (!fs.existsSync(resolved)) {
          broken.push(`${file}: ${link} (no such file)`);
          continue;
        }
        if (anchor && resolved.endsWith('.md') && !anchors(resolved).has(anchor))
          broken.push(`${file}: ${link} (no heading #${anchor})`);
      }
    }
    assert.deepEqual(broken, []);
  });

  it('heading slugs follow GitHub: punctuation dropped, spaces become dashes', () => {
    assert.equal(slug('Node floor, lint and format'), 'node-floor-lint-and-format');
    assert.equal(
      slug('What provisioning does (and what actually worked)'),
      'what-provisioning-does-and-what-actually-worked',
    );
    assert.equal(slug('Command line: `gks`'), 'command-line-gks');
  });
});
