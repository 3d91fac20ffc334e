/**
 * The legal documents people accept (terms, privacy notice, data processing agreement), served
 * from the repository's texts (legal/*.md) at /legal/<name> as plain HTML pages. An operator with
 * its own documents sets LEGAL_*_URL instead, and every link (registration, legal acceptance,
 * checkout, the landing page) points there; these pages stay served either way.
 *
 * The texts are the operator's files, but they are escaped like any other text: only headings,
 * paragraphs, list items and `code` are recognised.
 */
import express from 'express';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { escapeHtml } from './landing-html.js';

export const LEGAL_DOCUMENTS = { terms: 'terms.md', privacy: 'privacy.md', 'data-processing': 'data-processing.md' } as const;

const LEGAL_DIR = fileURLToPath(new URL('../../legal/', import.meta.url));

const inline = (text: string) => escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');

/** A small subset of Markdown: `#`/`##` headings, `- ` lists, paragraphs separated by a blank line. */
export function legalHtml(markdown: string): { title: string; body: string } {
  let title = 'Legal document';
  const blocks = markdown.trim().split(/\n\s*\n/);
  const body = blocks
    .map((block) => {
      const heading = /^(#{1,2})\s+(.*)$/.exec(block.trim());
      if (heading) {
        if (heading[1] === '#') title = heading[2]!;
        return heading[1] === '#' ? `<h1>${inline(heading[2]!)}</h1>` : `<h2>${inline(heading[2]!)}</h2>`;
      }
      if (block.trim().startsWith('- ')) {
        const items = block.trim().split(/\n- /).map((item) => `<li>${inline(item.replace(/^- /, '').replace(/\s*\n\s*/g, ' '))}</li>`);
        return `<ul>${items.join('')}</ul>`;
      }
      return `<p>${inline(block.replace(/\s*\n\s*/g, ' '))}</p>`;
    })
    .join('\n');
  return { title, body };
}

/** GET /legal/terms, /legal/privacy, /legal/data-processing. */
export function legalDocumentsRouter(dir = LEGAL_DIR): express.Router {
  const router = express.Router();
  for (const [name, file] of Object.entries(LEGAL_DOCUMENTS)) {
    const path = `${dir}${file}`;
    router.get(`/legal/${name}`, (_req, res, next) => {
      if (!existsSync(path)) return next();
      const { title, body } = legalHtml(readFileSync(path, 'utf8'));
      res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
      res
        .type('html')
        .send(
          `<!doctype html><html lang="en"><head><meta charset="utf-8" /><meta name="viewport" content="width=device-width, initial-scale=1" /><title>${escapeHtml(title)}</title>` +
            `<style>body{font:16px/1.6 system-ui,sans-serif;color:#1c1917;max-width:44rem;margin:0 auto;padding:1rem}a{color:#1d4ed8}</style></head>` +
            `<body><main>${body}</main><footer><p><a href="/">Legal Search</a> · <a href="/dashboard/">Dashboard</a></p></footer></body></html>`,
        );
    });
  }
  return router;
}
