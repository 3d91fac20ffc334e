/** "Cites": the document's resolved citations in order of appearance (links, with the pinpoint), then those not linked, with the reason in words. */
import { Link } from 'react-router';
import type { DocumentViewQuery } from '../../../gql/graphql';
import { documentPath } from '../links';

const REASONS: Record<string, string> = {
  act_not_in_corpus: 'the act is not in the corpus',
  unit_not_in_corpus: 'the act is in the corpus, this provision is not',
  ambiguous: 'more than one act could be meant',
  foreign_act: 'an act of another jurisdiction, not the one of the same name here',
  no_act: 'no act is named near it',
};

/** What the document cites, read with it on the page (DocumentView): no request of its own. */
export type DocumentCites = NonNullable<DocumentViewQuery['document']>['cites'];

export function CitesSection({ answer }: { answer: DocumentCites }) {
  return (
    <section className="card" aria-labelledby="cites-title">
      <h2 id="cites-title">Cites ({answer.links.length})</h2>
      <>
          {answer.links.length === 0 ? (
            <p className="muted">No citation in this text resolves to a document of the corpus.</p>
          ) : (
            <ol className="plain-list cites-list" data-testid="cites-links">
              {answer.links.map((l) => (
                <li key={`${l.start}-${l.cited.id}`}>
                  <Link to={documentPath(l.cited.source, l.cited.source_id, l.pinpoint)}>{l.citation}</Link>{' '}
                  <span className="muted small">
                    {l.cited.source} · {l.cited.source_id}
                    {l.pinpoint && <> · pinpoint {l.pinpoint}</>}
                    {l.carried && <> · act taken from the preceding citation</>}
                  </span>
                </li>
              ))}
            </ol>
          )}
          {answer.unresolved.length > 0 && (
            <>
              <h3>Not linked ({answer.unresolved.length})</h3>
              <ul className="plain-list" data-testid="cites-unresolved">
                {answer.unresolved.map((u) => (
                  <li key={u.start}>
                    {u.citation} <span className="muted small">— {REASONS[u.reason] ?? u.reason}</span>
                  </li>
                ))}
              </ul>
            </>
          )}
      </>
    </section>
  );
}
