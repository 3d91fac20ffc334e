/** Administration: the audit log (who changed what, before and after, why), newest first, paged. */
import { useState } from 'react';
import { useQuery } from '../../app/hooks';
import { formatDateTime, formatNumber } from '../../components/format';
import { Field, Page } from '../../components/Page';
import { Empty, QueryState } from '../../components/states';
import { AdminAuditDocument, type AuditAction } from '../../gql/graphql';
import { AdminNav } from './AdminNav';

const PAGE_SIZE = 50;

/** The actions as the log writes them, and their GraphQL enum values (a dot is written `_`). */
const ACTIONS: Record<string, AuditAction> = {
  'user.plan_override': 'user_plan_override',
  'user.erase': 'user_erase',
  'feedback.status': 'feedback_status',
  'feedback.mark_forwarded': 'feedback_mark_forwarded',
};

export default function AuditPage() {
  const [offset, setOffset] = useState(0);
  const [action, setAction] = useState('');
  const audit = useQuery(AdminAuditDocument, { offset, limit: PAGE_SIZE, action: ACTIONS[action] ?? null, targetId: null });
  return (
    <Page title="Audit log" lead="Every administrative change, with the state before and after.">
      <AdminNav />
      <div className="toolbar">
        <Field id="audit-action" label="Action">
          <select id="audit-action" value={action} onChange={(e) => (setAction(e.target.value), setOffset(0))}>
            <option value="">All actions</option>
            {Object.keys(ACTIONS).map((a) => (
              <option key={a} value={a}>
                {a}
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
                        <td data-label="Action">
                          <code>{e.action}</code>
                        </td>
                        <td data-label="Target">
                          {e.target_type} <code className="small">{e.target_id.slice(0, 8)}</code>
                        </td>
                        <td data-label="Before">
                          <pre className="json">{e.before_json ?? '—'}</pre>
                        </td>
                        <td data-label="After">
                          <pre className="json">{e.after_json ?? '—'}</pre>
                        </td>
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
