/** The team page's seats (owner only). */
import { type FormEvent, useState } from 'react';
import { useMutation } from '../../app/hooks';
import { Field } from '../../components/Page';
import { FormError } from '../../components/states';
import { SetSeatsDocument } from '../../gql/graphql';
import type { Team } from './team-types';

export function SeatsSection({ team, reload }: { team: Team; reload(): void }) {
  const seats = useMutation(SetSeatsDocument);
  const [quantity, setQuantity] = useState(team.seat_limit);
  const [answer, setAnswer] = useState<string | null>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setAnswer(null);
    const a = await seats.run({ quantity: Math.floor(quantity) });
    if (a) {
      setAnswer(`Asked for ${a.setSeats.quantity} seats; the limit changes when the payment provider confirms (now ${a.setSeats.seat_limit}).`);
      reload();
    }
  }
  return (
    <section className="card" aria-labelledby="seats-title">
      <h2 id="seats-title">Seats</h2>
      <form onSubmit={submit} className="inline-form">
        <Field id="seat-count" label="Number of seats" hint={`At least the ${team.seats_used} in use. Billed per seat, prorated by Stripe.`}>
          <input id="seat-count" type="number" min={Math.max(1, team.seats_used)} max={10000} value={quantity} onChange={(e) => setQuantity(Number(e.target.value))} aria-describedby="seat-count-hint" />
        </Field>
        <button type="submit" className="secondary" disabled={seats.pending}>
          {seats.pending ? 'Saving…' : 'Change seats'}
        </button>
      </form>
      <FormError error={seats.error} />
      {answer && <p role="status">{answer}</p>}
    </section>
  );
}
