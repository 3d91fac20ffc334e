/** Administration: the audit log (who changed what, before and after in words, why), newest first, paged; user targets by e-mail. */
import { useState } from 'react';
import { useQuery } from '../../app/hooks';
import { formatDateTime, formatNumber } from '../../components/format';
import { Field, Page } from '../../components/Page';
import { Empty, QueryState } from '../../components/states';
import { AdminAuditDocument, type AdminAuditQuery } from '../../gql/graphql';
import { AdminNav } from './AdminNav';
import { actionLabel, AUDIT_ACTIONS, changeLines, type ChangeLine } from './audit-words';
import { usePlanNames } from './plan-names';

const PAGE_SIZE = 50;
type Entry = NonNullable<AdminAuditQuery['adminAudit']>['items'][number];

export default function AuditPage() {
  const [offset, setOffset] = useState(0);
  const [action, setAction] = useState('');
  const selected = (AUDIT_ACTIONS as Record<string, (typeof AUDIT_ACTIONS)[keyof typeof AUDIT_ACTIONS]>)[action];
  const audit = useQuery(AdminAuditDocument, { offset, limit: PAGE_SIZE, action: selected?.value ?? null, targetId: null });
  const planName = usePlanNames();
  return (
    <Page title="Audit log" lead="Every administrative change, with the state before and after.">
      <AdminNav />
      <div className="toolbar">
        <Field id="audit-action" label="Action">
          <select id="audit-action" value={action} onChange={(e) => (setAction(e.target.value), setOffset(0))}>
            <option value="">All actions</option>
            {Object.entries(AUDIT_ACTIONS).map(([a, { label }]) => (
              <option key={a} value={a}>
                {label}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <QueryState result={audit} loadingLabel="Loading the audit log…">
        {({ adminAudit: page }) =>
          page.items.length === 0 ? (
            <Empty title="No entries" />
          ) : (
            <>
              <div className="table-wrap">
                <table className="responsive" data-testid="audit">
                  <thead>
                    <tr>
                      <th scope="col">When</th>
                      <th scope="col">Who</th>
                      <th scope="col">Action</th>
                      <th scope="col">Target</th>
                      <th scope="col">Before</th>
                      <th scope="col">After</th>
                      <th scope="col">Reason</th>
                    </tr>
                  </thead>
                  <tbody>
                    {page.items.map((e) => (
                      <tr key={e.id}>
                        <td data-label="When">{formatDateTime(e.created_at)}</td>
                        <td data-label="Who">{e.actor_email}</td>
                        <td data-label="Action">{actionLabel(e.action)}</td>
                        <td data-label="Target">
                          <Target entry={e} />
                        </td>
                        <AuditChange entry={e} planName={planName} />
                        <td data-label="Reason">{e.reason ?? '—'}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <div className="pager">
                <button type="button" className="secondary" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}>
                  Newer
                </button>
                <span role="status">
                  {page.items.length ? offset + 1 : 0}–{offset + page.items.length} of {formatNumber(page.total)}
                </span>
                <button type="button" className="secondary" disabled={offset + PAGE_SIZE >= page.total} onClick={() => setOffset(offset + PAGE_SIZE)}>
                  Older
                </button>
              </div>
            </>
          )
        }
      </QueryState>
    </Page>
  );
}

/** Whom an entry is about: a user by e-mail (an erased one by the start of its id), a feedback report by its id. */
function Target({ entry: e }: { entry: Entry }) {
  if (e.target_type === 'user') {
    return e.target_email ? (
      <>{e.target_email}</>
    ) : (
      <>
        Erased account <code className="small">{e.target_id.slice(0, 8)}</code>
      </>
    );
  }
  return (
    <>
      {e.target_type === 'feedback_report' ? 'Feedback report' : e.target_type} <code className="small">{e.target_id.slice(0, 8)}</code>
    </>
  );
}

/** The before and after cells: "label: value" lines, the changed ones in bold. */
function AuditChange({ entry: e, planName }: { entry: Entry; planName(slug: string): string }) {
  const { before, after } = changeLines(e.before_json, e.after_json, planName);
  return (
    <>
      <td data-label="Before">
        <ChangeList lines={before} />
      </td>
      <td data-label="After">
        <ChangeList lines={after} />
      </td>
    </>
  );
}

function ChangeList({ lines }: { lines: ChangeLine[] }) {
  if (lines.length === 0) return <>—</>;
  return (
    <ul className="change">
      {lines.map((l) => (
        <li key={l.label}>
          {l.label}: {l.changed ? <strong>{l.value}</strong> : l.value}
        </li>
      ))}
    </ul>
  );
}
