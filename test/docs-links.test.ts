/**
 * The README and docs/*.md point only at files, headings and repository paths that exist, so
 * moving a file or a section fails here until every reference to it is updated.
 */
import { readFileSync } from 'node:fs';
import { deadReferences, documentationFiles, headingAnchor } from './helpers/doc-links.js';

const root = process.cwd();

describe('links and paths in the README and docs', () => {
  it.each(documentationFiles(root))('%s has no dead link or path', (file) => {
    const dead = deadReferences(root, file).map((d) => `${d.file}:${d.line}: ${d.reference} (${d.problem})`);
    expect(dead).toEqual([]);
  });

  it('the README stays a guide that names every page of docs/', () => {
    const readme = readFileSync('README.md', 'utf8');
    expect(readme.split('\n').length).toBeLessThanOrEqual(201);
    const unlisted = documentationFiles(root).filter((f) => f !== 'README.md' && !readme.includes(`](${f})`));
    expect(unlisted).toEqual([]);
  });

  it('computes anchors as GitHub does', () => {
    expect(headingAnchor('Speed and memory: stages, and what changed (issue 17)')).toBe('speed-and-memory-stages-and-what-changed-issue-17');
    expect(headingAnchor('10,000 documents — measured')).toBe('10000-documents--measured');
    expect(headingAnchor('How the service serves it (`src/http/dashboard.ts`)')).toBe('how-the-service-serves-it-srchttpdashboardts');
  });
});
