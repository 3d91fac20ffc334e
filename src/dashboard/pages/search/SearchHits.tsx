/** The search's results: each hit with snippet, score (explained on demand) and source licence. */
import { Link } from 'react-router';
import type { Answered } from '../../api/client';
import { Empty } from '../../components/states';
import { formatDate, formatNumber } from '../../components/format';
import { type SearchQuery } from '../../gql/graphql';
import { documentPath } from './links';
import { MAX_HITS, NAMESPACES, type Discovery } from './search-form';

/** The hits of page `page` (the answer holds every hit up to it: search-form.ts hitsToAsk). */
export function Hits({ data, discovery, page, perPage, stale }: { data: Answered<SearchQuery>; discovery: Discovery | undefined; page: number; perPage: number; stale: boolean }) {
  const r = data.search;
  const from = (page - 1) * perPage;
  const shown = r.hits.slice(from, from + perPage);
  const licences = new Map((discovery?.manifest.sources ?? []).map((s) => [s.source, s]));
  if (r.hits.length > 0 && shown.length === 0) {
    return (
      <Empty title={`No more results for “${r.query}”`}>
        <p>All {formatNumber(r.hits.length)} results are on the earlier pages.</p>
      </Empty>
    );
  }
  if (r.hits.length === 0) {
    return (
      <Empty title={`Nothing found for “${r.query}”`}>
        <p>Try other words, fewer filters, or move the slider towards semantic to match meaning rather than exact words.</p>
      </Empty>
    );
  }
  return (
    <>
      {/* the summary of the search on screen; hidden while another runs, so it never describes the wrong one */}
      {!stale && (
        <p className="muted small" role="status" data-testid="search-summary">
          {formatNumber(r.total_hits)} matching documents, showing {formatNumber(from + 1)}–{formatNumber(from + shown.length)} · {NAMESPACES[r.namespace] ?? r.namespace} · alpha {r.alpha} · {r.elapsed_ms} ms
        </p>
      )}
      <ol className="hits" start={from + 1}>
        {shown.map((h) => {
          const fromHit = h.license as { name?: string | null; url?: string | null } | null | undefined;
          const lic = fromHit?.name ? { license_name: fromHit.name, license_url: fromHit.url ?? null } : licences.get(h.source);
          return (
            <li key={h.id} className="card hit" data-hit-id={h.id}>
              <h3>
                <Link to={documentPath(h.source, h.source_id)}>{h.title || h.canonical_path || h.source_id}</Link>
              </h3>
              <p className="hit-meta small">
                <span>{h.source}</span>
                {h.court && <span>{h.court}</span>}
                {h.date && <span>{formatDate(h.date)}</span>}
                {h.ecli && <span>{h.ecli}</span>}
                {h.case_number && <span>{h.case_number}</span>}
                {h.language && <span>{h.language}</span>}
              </p>
              {h.snippet && <p className="snippet">{h.snippet}</p>}
              {!h.snippet && h.summary && <p className="snippet">{h.summary}</p>}
              {h.text && (
                <details>
                  <summary>
                    Text{h.text_truncated ? ` (first ${formatNumber(h.text.length)} of ${formatNumber(h.full_text_size ?? 0)} characters)` : ''}
                  </summary>
                  <div className="doc-body small">{h.text}</div>
                </details>
              )}
              <p className="hit-foot small">
                <ScoreExplanation score={h.score} parts={h.score_parts as ScoreParts | null | undefined} />
                <span>
                  licence:{' '}
                  {lic?.license_name ? (
                    lic.license_url ? (
                      <a href={lic.license_url} target="_blank" rel="noreferrer">
                        {lic.license_name}
                      </a>
                    ) : (
                      lic.license_name
                    )
                  ) : (
                    'not stated'
                  )}
                </span>
              </p>
            </li>
          );
        })}
      </ol>
    </>
  );
}

/**
 * Previous / next page. The API answers at most 100 hits per search, so the last page is the one
 * holding the 100th; a page exists when the matching documents (`total`) reach into it.
 */
export function Pager({ total, returned, page, perPage, busy, onPage }: { total: number; returned: number; page: number; perPage: number; busy: boolean; onPage(page: number): void }) {
  const reachable = Math.min(total, MAX_HITS);
  const hasNext = returned >= page * perPage && reachable > page * perPage;
  if (page === 1 && !hasNext) return null;
  const pages = Math.ceil(reachable / perPage);
  return (
    <nav className="pager" aria-label="Result pages">
      <button type="button" className="secondary" disabled={page <= 1 || busy} onClick={() => onPage(page - 1)}>
        Previous page
      </button>
      <span className="small">
        Page {page} of {pages}
      </span>
      <button type="button" className="secondary" disabled={!hasNext || busy} onClick={() => onPage(page + 1)}>
        Next page
      </button>
      {total > MAX_HITS && page === pages && <p className="hint">The API returns the best {MAX_HITS} results of a search: narrow the filters to see others.</p>}
    </nav>
  );
}

/** The numbers behind a hit's score, as the API explains them (`explain: true`). */
interface ScoreParts {
  keyword_normalized: number;
  semantic_normalized: number;
  keyword: number;
  semantic: number;
  alpha: number;
  fused: number;
  cited_provision: boolean;
  section_context: { weight: number } | null;
  semantic_feedback?: { weight: number; documents: string[] } | null;
  keyword_coverage?: { concepts: number; complete: boolean; factor: number } | null;
  citation_authority?: { cited_by: number; boost: number } | null;
}

function ScoreExplanation({ score, parts }: { score: number; parts: ScoreParts | null | undefined }) {
  if (!parts) return <span title="Fused relevance score of the keyword and semantic rankings">score {score.toFixed(4)}</span>;
  const f = (n: number) => n.toFixed(3);
  const authority = parts.citation_authority;
  return (
    <span title="score = alpha × semantic + (1 − alpha) × keyword (each leg normalised to 0–1) + citation authority">
      score {f(parts.fused)} = {parts.alpha} × semantic {f(parts.semantic)} + {Number((1 - parts.alpha).toFixed(2))} × keyword {f(parts.keyword)}
      {authority && authority.boost > 0 && ` + authority ${f(authority.boost)} (cited by ${authority.cited_by} ${authority.cited_by === 1 ? 'decision or guidance document' : 'decisions and guidance documents'})`}
      {parts.cited_provision && ' · cited provision'}
      {parts.section_context && ' · section context'}
      {parts.semantic_feedback && ' · semantic leg guided by the best keyword hits'}
      {parts.keyword_coverage && !parts.keyword_coverage.complete && ` · keyword × ${f(parts.keyword_coverage.factor)}: the passage misses a word of the question`}
    </span>
  );
}
