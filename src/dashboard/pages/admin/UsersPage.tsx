/**
 * Administration: the users table (search, sort, paging) and, per user, the top endpoints, the
 * plan override, the partner editor (PartnerEditor.tsx) and erasure with a typed confirmation (the user's e-mail address).
 */
import type { Answered } from '../../api/client';
import { type FormEvent, useEffect, useState } from 'react';
import { useMutation, useQuery } from '../../app/hooks';
import { formatDate, formatDateTime, formatNumber } from '../../components/format';
import { Field, Page } from '../../components/Page';
import { Empty, FormError, QueryState } from '../../components/states';
import { AdminEraseUserDocument, AdminSetPlanOverrideDocument, AdminUserEndpointsDocument, AdminUsersDocument, type AdminUserSort, type AdminUsersQuery, type OverridePlan } from '../../gql/graphql';
import { AdminNav, PLAN_CHOICES } from './AdminNav';
import { PartnerEditor } from './PartnerEditor';
import { usePlanNames } from './plan-names';

type User = Answered<AdminUsersQuery>['adminUsers']['users'][number];
const PAGE_SIZE = 25;
const SORTS = [
  { value: 'requests', label: 'Requests (30 days)' },
  { value: 'created_at', label: 'Newest' },
  { value: 'email', label: 'E-mail' },
];

export default function UsersPage() {
  const planName = usePlanNames();
  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<AdminUserSort>('requests');
  const [offset, setOffset] = useState(0);
  const [open, setOpen] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // the search runs when typing pauses
  useEffect(() => {
    const t = setTimeout(() => {
      setSearch(searchText.trim());
      setOffset(0);
    }, 300);
    return () => clearTimeout(t);
  }, [searchText]);
  const users = useQuery(AdminUsersDocument, { limit: PAGE_SIZE, offset, sort, search });

  return (
    <Page title="Users">
      <AdminNav />
      <form className="toolbar" role="search" onSubmit={(e) => e.preventDefault()}>
        <Field id="user-search" label="Search e-mail or name">
          <input id="user-search" type="search" maxLength={100} value={searchText} onChange={(e) => setSearchText(e.target.value)} />
        </Field>
        <Field id="user-sort" label="Sort by">
          <select id="user-sort" value={sort} onChange={(e) => (setSort(e.target.value as AdminUserSort), setOffset(0))}>
            {SORTS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </Field>
      </form>
      {notice && <p className="success" role="status">{notice}</p>}
      <QueryState result={users} loadingLabel="Loading users…">
        {({ adminUsers: page }) =>
          page.users.length === 0 ? (
            <Empty title={search ? `No user matches “${search}”` : 'No users yet'} />
          ) : (
            <>
              <div className="table-wrap">
                <table className="responsive" data-testid="users">
                  <thead>
                    <tr>
                      <th scope="col">User</th>
                      <th scope="col">Plan</th>
                      <th scope="col">Workspace</th>
                      <th scope="col">Requests (30 days / all)</th>
                      <th scope="col">Created</th>
                      <th scope="col">Last active</th>
                      <th scope="col">
                        <span className="visually-hidden">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {page.users.map((u) => (
                      <UserRow
                        key={u.id}
                        user={u}
                        planName={planName}
                        open={open === u.id}
                        onToggle={() => setOpen(open === u.id ? null : u.id)}
                        onChanged={users.reload}
                        onErased={() => (setNotice(`${u.email} was erased.`), setOpen(null), users.reload())}
                      />
                    ))}
                  </tbody>
                </table>
              </div>
              <Pager page={page} offset={offset} onOffset={setOffset} />
            </>
          )
        }
      </QueryState>
    </Page>
  );
}

function UserRow({ user: u, planName, open, onToggle, onChanged, onErased }: { user: User; planName(slug: string): string; open: boolean; onToggle(): void; onChanged(): void; onErased(): void }) {
  return (
    <>
      <tr>
        <td data-label="User">
          {u.email}
          {u.name && <div className="muted small">{u.name}</div>}
          {u.is_admin && <span className="badge">administrator</span>}
        </td>
        <td data-label="Plan" data-testid={`plan-${u.email}`}>
          {planName(u.plan)}
          {u.override && <span className="badge">override</span>}
        </td>
        <td data-label="Workspace">{u.workspace ? `${u.workspace.name} (${u.role})` : '—'}</td>
        <td data-label="Requests">
          {formatNumber(u.requests_period)} / {formatNumber(u.requests_total)}
        </td>
        <td data-label="Created">{formatDate(u.created_at)}</td>
        <td data-label="Last active">{formatDateTime(u.last_active_at)}</td>
        <td data-label="Actions">
          <button type="button" className="secondary" aria-expanded={open} aria-controls={`user-${u.id}`} onClick={onToggle} aria-label={`${open ? 'Hide' : 'Show'} details of ${u.email}`}>
            {open ? 'Hide' : 'Details'}
          </button>
        </td>
      </tr>
      {open && (
        <tr>
          <td colSpan={7} id={`user-${u.id}`}>
            <UserDetail user={u} planName={planName} onChanged={onChanged} onErased={onErased} />
          </td>
        </tr>
      )}
    </>
  );
}

function UserDetail({ user: u, planName, onChanged, onErased }: { user: User; planName(slug: string): string; onChanged(): void; onErased(): void }) {
  return (
    <div className="user-detail grid two">
      <TopEndpoints user={u} />
      <div className="stack">
        <PlanOverrideForm user={u} planName={planName} onChanged={onChanged} />
        <PartnerEditor user={u} />
        <EraseForm user={u} onErased={onErased} />
      </div>
    </div>
  );
}

/** Previous / next through the users, with where this page is. */
function Pager({ page, offset, onOffset }: { page: { offset: number; total: number; users: unknown[] }; offset: number; onOffset(offset: number): void }) {
  return (
    <div className="pager">
      <button type="button" className="secondary" disabled={offset === 0} onClick={() => onOffset(Math.max(0, offset - PAGE_SIZE))}>
        Previous
      </button>
      <span role="status">
        {page.offset + 1}–{page.offset + page.users.length} of {formatNumber(page.total)}
      </span>
      <button type="button" className="secondary" disabled={offset + PAGE_SIZE >= page.total} onClick={() => onOffset(offset + PAGE_SIZE)}>
        Next
      </button>
    </div>
  );
}

/** The endpoints the user calls most. */
function TopEndpoints({ user: u }: { user: User }) {
  const endpoints = useQuery(AdminUserEndpointsDocument, { userId: u.id });
  return (
    <section aria-labelledby={`ep-${u.id}`}>
      <h2 id={`ep-${u.id}`}>Top endpoints of {u.email}</h2>
      <QueryState result={endpoints}>
        {(d) =>
          d.adminUserEndpoints.endpoints.length === 0 ? (
            <p className="muted">No requests.</p>
          ) : (
            <ol>
              {d.adminUserEndpoints.endpoints.map((e) => (
                <li key={e.endpoint}>
                  <code>{e.endpoint}</code>: {formatNumber(e.requests)}
                </li>
              ))}
            </ol>
          )
        }
      </QueryState>
    </section>
  );
}

/** A plan that wins over the subscription's while set, with the reason for the audit log. */
function PlanOverrideForm({ user: u, planName, onChanged }: { user: User; planName(slug: string): string; onChanged(): void }) {
  const override = useMutation(AdminSetPlanOverrideDocument);
  const [plan, setPlan] = useState(u.override?.plan ?? '');
  const [reason, setReason] = useState('');
  const [overrideDone, setOverrideDone] = useState<string | null>(null);

  async function saveOverride(e: FormEvent) {
    e.preventDefault();
    setOverrideDone(null);
    const a = await override.run({ userId: u.id, plan: (plan as OverridePlan) || null, reason: reason.trim() || null });
    if (a) {
      const r = a.adminSetPlanOverride;
      setOverrideDone(r.override ? `The plan is now ${planName(r.plan)} (override; the subscription gives ${planName(r.subscription_plan)}).` : `Override removed: the plan is ${planName(r.plan)} again.`);
      onChanged();
    }
  }

  return (
    <form onSubmit={saveOverride} className="stack" aria-labelledby={`ov-${u.id}`}>
      <h2 id={`ov-${u.id}`}>Plan override</h2>
      <p className="muted small">Wins over the subscription while set. Subscription plan: {planName(u.subscription_plan)}.</p>
      <Field id={`ov-plan-${u.id}`} label="Plan">
        <select id={`ov-plan-${u.id}`} value={plan} onChange={(e) => setPlan(e.target.value)}>
          <option value="">No override (the subscription's plan)</option>
          {PLAN_CHOICES.map((p) => (
            <option key={p} value={p}>
              {planName(p)}
            </option>
          ))}
        </select>
      </Field>
      <Field id={`ov-reason-${u.id}`} label="Reason (kept in the audit log)">
        <input id={`ov-reason-${u.id}`} type="text" maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
      </Field>
      <FormError error={override.error} />
      {overrideDone && <p role="status">{overrideDone}</p>}
      <div className="actions">
        <button type="submit" disabled={override.pending}>
          {override.pending ? 'Saving…' : 'Save plan override'}
        </button>
      </div>
    </form>
  );
}

/** Erasing the account, confirmed by typing its e-mail address. */
function EraseForm({ user: u, onErased }: { user: User; onErased(): void }) {
  const erase = useMutation(AdminEraseUserDocument);
  const [confirmText, setConfirmText] = useState('');
  const [eraseReason, setEraseReason] = useState('');

  async function doErase(e: FormEvent) {
    e.preventDefault();
    if (confirmText.trim().toLowerCase() !== u.email.toLowerCase()) return;
    if (await erase.run({ userId: u.id, reason: eraseReason.trim() || null })) onErased();
  }

  return (
    <form onSubmit={doErase} className="stack" aria-labelledby={`er-${u.id}`}>
      <h2 id={`er-${u.id}`}>Erase this account</h2>
      <>
          <p className="muted small">
            Deletes the account, its keys and sessions, cancels its subscription and anonymises its usage and feedback. This cannot be undone.
          </p>
          <Field id={`er-confirm-${u.id}`} label={<>Type the e-mail address <strong>{u.email}</strong> to confirm</>}>
            <input id={`er-confirm-${u.id}`} type="text" autoComplete="off" value={confirmText} onChange={(e) => setConfirmText(e.target.value)} />
          </Field>
          <Field id={`er-reason-${u.id}`} label="Reason (kept in the audit log)">
            <input id={`er-reason-${u.id}`} type="text" maxLength={500} value={eraseReason} onChange={(e) => setEraseReason(e.target.value)} />
          </Field>
          <FormError error={erase.error} />
          <div className="actions">
            <button type="submit" className="danger" disabled={erase.pending || confirmText.trim().toLowerCase() !== u.email.toLowerCase()}>
              {erase.pending ? 'Erasing…' : 'Erase account'}
            </button>
          </div>
      </>
    </form>
  );
}
