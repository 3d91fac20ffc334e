/**
 * The resolve box: a citation in any national style ("§ 823 BGB", "ECLI:…", "Article 6 GDPR")
 * resolved by the supergraph's `resolve`; one exact match opens the document at once, several
 * are listed with their confidence.
 */
import type { Answered } from '../../api/client';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useMutation } from '../../app/hooks';
import { Field } from '../../components/Page';
import { Empty, FormError } from '../../components/states';
import { ResolveDocument, type ResolveQuery } from '../../gql/graphql';
import { documentPath } from './links';
import { whyNothing } from './resolve-words';

export function ResolveBox({ countries, headingLevel = 2 }: { countries: string[]; headingLevel?: 2 | 3 }) {
  const [reference, setReference] = useState('');
  const [hint, setHint] = useState('');
  const [result, setResult] = useState<Answered<ResolveQuery>['resolve'] | null>(null);
  // a query run on demand: the mutation hook's run/pending/error fit it
  const resolve = useMutation(ResolveDocument);
  const navigate = useNavigate();
  const H = headingLevel === 2 ? 'h2' : 'h3';

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!reference.trim()) return;
    const answer = await resolve.run({ input: { reference: reference.trim(), hintCountry: hint || null } });
    if (!answer) return;
    setResult(answer.resolve);
    const docs = answer.resolve.documents;
    // the sub-units (`Abs. 1`) go along as the pinpoint the document page highlights
    const pinpoint = answer.resolve.parsed.sub_units.join(' ');
    if (answer.resolve.resolved && docs.length === 1 && docs[0]) navigate(documentPath(docs[0].source, docs[0].source_id, pinpoint), { state: { resolvedFrom: answer.resolve.reference } });
  }

  return (
    <section className="card" aria-labelledby="resolve-title">
      <H id="resolve-title">Resolve a citation</H>
      <p className="hint">Paste a reference as lawyers write it: “§ 823 Abs. 1 BGB”, “Article 6(1)(a) GDPR”, “ECLI:DE:BGH:2020:…”, a CELEX number. An exact match opens the document.</p>
      <form onSubmit={submit} className="inline-form" role="search" aria-label="Resolve a citation">
        <Field id="resolve-reference" label="Citation">
          <input id="resolve-reference" type="text" value={reference} onChange={(e) => setReference(e.target.value)} required maxLength={500} />
        </Field>
        <Field id="resolve-country" label="Country (optional)">
          <select id="resolve-country" value={hint} onChange={(e) => setHint(e.target.value)}>
            <option value="">Any</option>
            {countries.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </Field>
        <button type="submit" disabled={resolve.pending}>
          {resolve.pending ? 'Resolving…' : 'Resolve'}
        </button>
      </form>
      <FormError error={resolve.error} />
      {result && (
        <div className="resolve-result" aria-live="polite">
          {result.documents.length === 0 ? (
            <NothingFound result={result} country={hint} />
          ) : (
            <>
              <p className="small muted">
                {result.resolved ? 'Resolved' : 'Possible matches: none is certain'} ({result.elapsed_ms} ms)
              </p>
              <ul className="plain-list">
                {result.documents.map((d) => (
                  <li key={d.id}>
                    <Link to={documentPath(d.source, d.source_id, result.parsed.sub_units.join(' '))}>{d.title}</Link>{' '}
                    <span className="muted small">
                      {d.source} · {d.canonical_path ?? d.source_id} · confidence {Math.round(d.confidence * 100)} %
                    </span>
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </section>
  );
}

/** Nothing matched: why, in words, and the same text as a search. */
function NothingFound({ result, country }: { result: Answered<ResolveQuery>['resolve']; country: string }) {
  const { title, reason } = whyNothing(result);
  const search = new URLSearchParams({ q: result.reference });
  if (country) search.append('country', country);
  return (
    <div className="resolve-none">
      <Empty title={title}>
        <p>{reason}</p>
        <div className="actions">
          <Link className="button secondary" to={`/search?${search}`}>
            Search instead for “{result.reference}”
          </Link>
        </div>
      </Empty>
    </div>
  );
}
