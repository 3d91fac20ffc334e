/**
 * The account's invoices from Stripe (the `invoices` query: the caller's own customer only),
 * newest first, each linked to Stripe's hosted invoice page; older ones are in the portal.
 * Its own query, so a slow or failing Stripe leaves the rest of the billing page usable.
 */
import { useQuery } from '../../app/hooks';
import { formatDate } from '../../components/format';
import { Empty, QueryState } from '../../components/states';
import { InvoicesDocument } from '../../gql/graphql';
import { usd } from './money';

const INVOICE_STATUS: Record<string, string> = { paid: 'Paid', open: 'Due', draft: 'Draft', uncollectible: 'Uncollectible', void: 'Void' };

export function InvoicesSection({ member }: { member: boolean }) {
  const invoices = useQuery(InvoicesDocument);
  return (
    <section aria-labelledby="invoices-title">
      <h2 id="invoices-title">Invoices</h2>
      <QueryState result={invoices} loadingLabel="Loading your invoices from Stripe…">
        {(data) =>
          data.invoices.invoices.length === 0 ? (
            <Empty title="No invoices yet">
              <p>{member ? "Your team's owner is billed for your seat; their invoices are in their account." : 'Invoices appear here after your first payment.'}</p>
            </Empty>
          ) : (
            <>
              <div className="table-wrap">
                <table className="responsive" data-testid="invoices">
                  <thead>
                    <tr>
                      <th scope="col">Date</th>
                      <th scope="col">Number</th>
                      <th scope="col">Period</th>
                      <th scope="col">Total</th>
                      <th scope="col">Status</th>
                      <th scope="col">
                        <span className="visually-hidden">Invoice page</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.invoices.invoices.map((inv) => (
                      <tr key={inv.id}>
                        <td data-label="Date">{formatDate(inv.created_at)}</td>
                        <td data-label="Number">{inv.number ?? '—'}</td>
                        <td data-label="Period">{inv.period_start && inv.period_end && inv.period_start !== inv.period_end ? `${formatDate(inv.period_start)} – ${formatDate(inv.period_end)}` : '—'}</td>
                        <td data-label="Total">{inv.currency === 'usd' ? usd(inv.total_usd) : `${inv.total_usd.toFixed(2)} ${inv.currency.toUpperCase()}`}</td>
                        <td data-label="Status">
                          <span className={`badge ${inv.status === 'paid' ? 'active' : inv.status === 'open' ? 'revoked' : ''}`}>{INVOICE_STATUS[inv.status ?? ''] ?? inv.status ?? '—'}</span>
                        </td>
                        <td data-label="Invoice page">
                          {inv.hosted_invoice_url ? (
                            <a href={inv.hosted_invoice_url} target="_blank" rel="noreferrer">
                              View invoice {inv.number ?? ''}
                              <span className="visually-hidden"> (opens Stripe in a new tab)</span>
                            </a>
                          ) : (
                            '—'
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              {data.invoices.has_more && <p className="muted small">Older invoices are in the customer portal (Manage subscription, payment methods and invoices).</p>}
            </>
          )
        }
      </QueryState>
    </section>
  );
}
