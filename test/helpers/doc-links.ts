/**
 * Dead references in the README and docs/*.md: every relative markdown link (`](path)` and
 * `](path#anchor)`, images included) must name a file that exists and, for a markdown file, a
 * heading that exists; every backticked repository path (`src/…`, `docs/…`, `test/…`, …) must
 * exist. Used by test/docs-links.test.ts, so a moved file or section never leaves a dead link.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Folders whose backticked paths (`src/http/cross-site.ts`) are checked from the repository root. */
const REPOSITORY_FOLDERS = ['src', 'docs', 'test', 'bench', 'subgraphs', 'migrations', 'deploy', 'graphql', '.ci'];

export interface DeadReference {
  file: string;
  line: number;
  reference: string;
  problem: string;
}

/** The markdown files checked: README.md and every docs/*.md. */
export function documentationFiles(root: string): string[] {
  const docs = readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
  return ['README.md', ...docs.sort()];
}

/** Lines outside fenced code blocks, with their 1-based numbers. */
function proseLines(text: string): { line: number; text: string }[] {
  let fenced = false;
  const lines: { line: number; text: string }[] = [];
  text.split('\n').forEach((t, i) => {
    if (/^\s*```/.test(t)) fenced = !fenced;
    else if (!fenced) lines.push({ line: i + 1, text: t });
  });
  return lines;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, each space a hyphen. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

const anchorCache = new Map<string, Set<string>>();

/** The anchors of a markdown file's headings (repeated headings get -1, -2… as on GitHub). */
function anchorsOf(file: string): Set<string> {
  let anchors = anchorCache.get(file);
  if (anchors) return anchors;
  anchors = new Set();
  const seen = new Map<string, number>();
  for (const { text } of proseLines(readFileSync(file, 'utf8'))) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text);
    if (!m) continue;
    const base = headingAnchor(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  anchorCache.set(file, anchors);
  return anchors;
}

/** Every dead link or path in one markdown file (`file` relative to `root`). */
export function deadReferences(root: string, file: string): DeadReference[] {
  const dead: DeadReference[] = [];
  const absolute = path.join(root, file);
  const dir = path.dirname(absolute);
  for (const { line, text } of proseLines(readFileSync(absolute, 'utf8'))) {
    const withoutCode = text.replace(/`[^`]*`/g, '``');
    for (const m of withoutCode.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = m[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
      const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
      const resolved = pathPart === '' ? absolute : path.resolve(dir, decodeURIComponent(pathPart));
      if (!existsSync(resolved)) {
        dead.push({ file, line, reference: target, problem: 'no such file' });
      } else if (anchor !== undefined && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor)) {
        dead.push({ file, line, reference: target, problem: `no heading with the anchor #${anchor}` });
      }
    }
    for (const m of text.matchAll(/`([^`\s]+)`/g)) {
      const candidate = m[1]!.replace(/[.,;:]$/, '');
      const top = candidate.split('/')[0]!;
      if (!REPOSITORY_FOLDERS.includes(top) || !candidate.includes('/')) continue;
      // placeholders and patterns (`src/modules/<domain>`, `test/**/*.test.ts`, `{a,b}.png`) name no one file
      if (/[<>*{}…$]|\.\.\./.test(candidate)) continue;
      const looksLikeFile = /\.[a-z0-9]+$/i.test(candidate) || candidate.endsWith('/');
      if (!looksLikeFile) continue;
      if (!existsSync(path.join(root, candidate.replace(/:\d+$/, '')))) {
        dead.push({ file, line, reference: candidate, problem: 'no such path in the repository' });
      }
    }
  }
  return dead;
}
