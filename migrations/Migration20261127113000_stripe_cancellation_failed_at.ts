/**
 * Owed Stripe cancellations are given up after a bounded number of attempts
 * (src/modules/admin/stripe-cancellations.ts): `failed_at` marks the ones to cancel by hand.
 */
import { Migration } from '@mikro-orm/migrations';

export class Migration20261127113000_stripe_cancellation_failed_at extends Migration {

  override name = 'Migration20261127113000_stripe_cancellation_failed_at';

  override up(): void | Promise<void> {
    this.addSql(`alter table "pending_stripe_cancellation" add "failed_at" timestamptz null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "pending_stripe_cancellation" drop column "failed_at";`);
  }

}
