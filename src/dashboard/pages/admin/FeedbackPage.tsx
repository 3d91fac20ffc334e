/**
 * Administration: the feedback queue (reports agents filed about sources and documents), by
 * status, with status changes (resolved, dismissed, forwarded, with a note) and mark-forwarded
 * (the URL of the issue created elsewhere).
 */
import type { Answered } from '../../api/client';
import { type FormEvent, useState } from 'react';
import { useMutation, useQuery } from '../../app/hooks';
import { formatDateTime } from '../../components/format';
import { Field, Page } from '../../components/Page';
import { Empty, FormError, QueryState } from '../../components/states';
import { AdminFeedbackDocument, AdminMarkFeedbackForwardedDocument, AdminUpdateFeedbackDocument, type AdminFeedbackQuery, type FeedbackStatusFilter, type SettableFeedbackStatus } from '../../gql/graphql';
import { AdminNav } from './AdminNav';

type Report = Answered<AdminFeedbackQuery>['adminFeedback']['reports'][number];
const FILTERS = ['open', 'forwarded', 'resolved', 'dismissed', 'all'];
const SETTABLE: SettableFeedbackStatus[] = ['resolved', 'dismissed', 'forwarded'];
/** The server refuses to move a resolved or dismissed report: no forms for those. */
const CLOSED = new Set(['resolved', 'dismissed']);

export default function FeedbackPage() {
  const [status, setStatus] = useState<FeedbackStatusFilter>('open');
  const feedback = useQuery(AdminFeedbackDocument, { status, limit: 100 });
  return (
    <Page title="Feedback" lead="Problems agents and users reported with sources and documents.">
      <AdminNav />
      <div className="toolbar">
        <Field id="feedback-status" label="Show">
          <select id="feedback-status" value={status} onChange={(e) => setStatus(e.target.value as FeedbackStatusFilter)}>
            {FILTERS.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <QueryState result={feedback} loadingLabel="Loading reports…">
        {({ adminFeedback: list }) =>
          list.reports.length === 0 ? (
            <Empty title={`No ${status === 'all' ? '' : `${status} `}reports`} />
          ) : (
            <>
              <p className="muted">
                {list.total} report{list.total === 1 ? '' : 's'}
                {list.total > list.reports.length ? `, the newest ${list.reports.length} shown` : ''}.
              </p>
              {list.reports.map((r) => (
                <ReportItem key={r.id} report={r} onChanged={feedback.reload} />
              ))}
            </>
          )
        }
      </QueryState>
    </Page>
  );
}

function ReportItem({ report: r, onChanged }: { report: Report; onChanged(): void }) {
  const update = useMutation(AdminUpdateFeedbackDocument);
  const forward = useMutation(AdminMarkFeedbackForwardedDocument);
  const [next, setNext] = useState<SettableFeedbackStatus>('resolved');
  const [note, setNote] = useState('');
  const [url, setUrl] = useState('');
  const id = r.id.slice(0, 8);

  async function saveStatus(e: FormEvent) {
    e.preventDefault();
    if (await update.run({ reportId: r.id, status: next, note: note.trim() || null })) onChanged();
  }
  async function saveForward(e: FormEvent) {
    e.preventDefault();
    if (await forward.run({ reportId: r.id, url: url.trim() })) onChanged();
  }

  return (
    <article className="report" aria-labelledby={`rep-${r.id}`} data-testid="report">
      <h3 id={`rep-${r.id}`}>
        {r.issue_type} in {r.source}
        {r.source_id ? ` / ${r.source_id}` : ''} <span className="badge">{r.status}</span>
      </h3>
      <p>{r.description}</p>
      <p className="muted small">
        Reported {formatDateTime(r.created_at)} via {r.channel}
        {r.user_id ? '' : ' (reporter erased)'}
        {r.updated_at ? `; changed ${formatDateTime(r.updated_at)}` : ''}
        {r.status_note ? `; note: ${r.status_note}` : ''}
      </p>
      {r.forwarded_url && (
        <p className="small">
          Tracked at <a href={r.forwarded_url}>{r.forwarded_url}</a>
        </p>
      )}
      {CLOSED.has(r.status) ? (
        <p className="muted small">Closed: a {r.status} report does not change.</p>
      ) : (
        <>
      <form onSubmit={saveStatus} aria-label={`Change the status of report ${id}`}>
        <Field id={`st-${r.id}`} label="Status">
          <select id={`st-${r.id}`} value={next} onChange={(e) => setNext(e.target.value as SettableFeedbackStatus)}>
            {SETTABLE.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </Field>
        <Field id={`note-${r.id}`} label="Note (optional)">
          <input id={`note-${r.id}`} type="text" maxLength={2000} value={note} onChange={(e) => setNote(e.target.value)} />
        </Field>
        <button type="submit" className="secondary" disabled={update.pending}>
          {update.pending ? 'Saving…' : 'Set status'}
        </button>
      </form>
      <FormError error={update.error} />
      <form onSubmit={saveForward} aria-label={`Mark report ${id} forwarded`}>
        <Field id={`fw-${r.id}`} label="Issue URL">
          <input id={`fw-${r.id}`} type="url" placeholder="https://github.com/…/issues/1" value={url} onChange={(e) => setUrl(e.target.value)} />
        </Field>
        <button type="submit" className="secondary" disabled={forward.pending || !url.trim()}>
          {forward.pending ? 'Saving…' : 'Mark forwarded'}
        </button>
      </form>
      <FormError error={forward.error} />
        </>
      )}
    </article>
  );
}
