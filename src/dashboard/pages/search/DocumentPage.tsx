/**
 * One document in full (/documents?source=<country/name>&id=<source_id>[&pinpoint=Abs. 1]): its
 * metadata and licence first, the text with its citations linked (and the pinpoint highlighted),
 * then who cites it and what it cites.
 */
import { useMemo } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useQuery } from '../../app/hooks';
import { Page } from '../../components/Page';
import { Empty, ErrorState, Loading } from '../../components/states';
import { formatDate } from '../../components/format';
import { DocumentViewDocument, SearchDiscoveryDocument, type DocumentViewQuery, type SearchDiscoveryQuery } from '../../gql/graphql';
import { ApiError } from '../../api/errors';
import { CitedBySection } from './document/CitedBySection';
import { CitesSection, type DocumentCites } from './document/CitesSection';
import { PAGE_SIZE } from './document/cited-by-filters';
import { DocumentText } from './document/DocumentText';
import { documentPath } from './links';
import type { TextLink } from './text-segments';

type CiteLink = DocumentCites['links'][number];

/** The resolved citations as links in the text, each to the cited document and its pinpoint. */
function textLinksOf(links: readonly CiteLink[] | undefined): TextLink[] {
  return (links ?? []).map((l) => ({ start: l.start, end: l.end, citation: l.citation, to: documentPath(l.cited.source, l.cited.source_id, l.pinpoint) }));
}

export default function DocumentPage() {
  const [params] = useSearchParams();
  const source = params.get('source') ?? '';
  const sourceId = params.get('id') ?? '';
  const pinpoint = params.get('pinpoint');
  const navigate = useNavigate();
  const location = useLocation();
  const resolvedFrom = (location.state as { resolvedFrom?: string } | null)?.resolvedFrom;
  // One operation, billed as one document read: the document, what it cites, the first page of who cites it and the timeline.
  const doc = useQuery(DocumentViewDocument, { source, sourceId, citedByFirst: PAGE_SIZE }, { skip: !source || !sourceId });
  const discovery = useQuery(SearchDiscoveryDocument);
  const licence = discovery.data?.manifest.sources.find((s) => s.source === source);
  const textLinks = useMemo(() => textLinksOf(doc.data?.document?.cites.links), [doc.data]);

  if (!source || !sourceId) {
    return (
      <Page title="Document">
        <ErrorState error={new ApiError('validation', 'This address names no document (it needs source and id).')} />
      </Page>
    );
  }
  if (doc.error) {
    return (
      <Page title="Document">
        <ErrorState error={doc.error} onRetry={doc.reload} />
      </Page>
    );
  }
  if (!doc.data) {
    return (
      <Page title="Document">
        <Loading label="Loading the document…" />
      </Page>
    );
  }
  const d = doc.data.document;
  if (!d) {
    return (
      <Page title="Document not found">
        <Empty title={`No document ${sourceId} in ${source}`}>
          <Link to="/search">Back to search</Link>
        </Empty>
      </Page>
    );
  }
  return (
    <Page
      title={d.title}
      lead={resolvedFrom ? <>Resolved from “{resolvedFrom}”.</> : undefined}
      actions={
        <button type="button" className="secondary" onClick={() => navigate(-1)}>
          Back
        </button>
      }
    >
      <div className="doc-layout">
        <DocumentFacts d={d} licence={licence} />
        <div className="doc-main">
          <article className="card doc-text" aria-label="Text">
            {d.summary && (
              <>
                <h2>Summary</h2>
                <p>{d.summary}</p>
              </>
            )}
            <h2>Text</h2>
            <DocumentText key={`${d.id} ${pinpoint ?? ''}`} text={d.text} links={textLinks} pinpoint={pinpoint} />
          </article>
          <CitedBySection key={d.id} source={d.source} sourceId={d.source_id} count={d.cited_by_count} initial={{ page: d.citedBy, years: d.citedByPerYear }} countries={discovery.data?.countries.map((c) => c.code) ?? []} />
          {(d.namespace !== 'legislation' || d.cites.links.length + d.cites.unresolved.length > 0) && <CitesSection answer={d.cites} />}
        </div>
      </div>
    </Page>
  );
}

type ViewedDocument = NonNullable<DocumentViewQuery['document']>;
type SourceLicence = SearchDiscoveryQuery['manifest']['sources'][number];

/** The document's facts (the fields it has), its source's licence and the links out. */
function DocumentFacts({ d, licence }: { d: ViewedDocument; licence: SourceLicence | undefined }) {
  const facts: [string, string | number | null | undefined][] = [
    ['Source', d.source],
    ['Identifier', d.canonical_path ?? d.source_id],
    ['Collection', d.namespace.replace('_', ' ')],
    ['Country', d.country],
    ['Language', d.language],
    ['Date', d.date ? formatDate(d.date) : null],
    ['Court', d.court],
    ['Chamber', d.chamber],
    ['ECLI', d.ecli],
    ['Case number', d.case_number],
    ['Decision type', d.decision_type],
    ['Authority', d.authority],
    ['Document type', d.document_type],
    ['Status', d.status],
    ['ELI', d.eli_uri],
    ['In force since', d.effective_date],
    ['Short names', d.short_names.join(', ') || null],
  ];
  return (
    <aside className="card doc-facts" aria-label="About this document">
      <dl>
        {facts
          .filter(([, v]) => v !== null && v !== undefined && v !== '')
          .map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
        <div>
          <dt>Licence</dt>
          <dd>
            {licence?.license_name ? (
              licence.license_url ? (
                <a href={licence.license_url} rel="noreferrer" target="_blank">
                  {licence.license_name}
                </a>
              ) : (
                licence.license_name
              )
            ) : (
              'not stated by the source'
            )}
            {licence?.commercial_use === false && <span className="small muted"> (no commercial use)</span>}
          </dd>
        </div>
      </dl>
      {d.url && (
        <p>
          <a href={d.url} rel="noreferrer" target="_blank">
            Original at the source
          </a>
        </p>
      )}
      {d.parent_source_id && (
        <p>
          <Link to={`/documents?${new URLSearchParams({ source: d.source, id: d.parent_source_id })}`}>The act this part belongs to</Link>
        </p>
      )}
    </aside>
  );
}
