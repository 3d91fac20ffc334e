/**
 * A second subscription bought while the account already had one is refunded and cancelled
 * (src/modules/billing/duplicate-subscriptions.ts): its row records the subscription kept and
 * the refund (Stripe's refund ids and the amount in cents).
 */
import { Migration } from '@mikro-orm/migrations';

export class Migration20261127132924_billing_duplicate_subscriptions extends Migration {

  override name = 'Migration20261127132924_billing_duplicate_subscriptions';

  override up(): void | Promise<void> {
    this.addSql(`alter table "billing_subscription" add "duplicate_of" text null, add "duplicate_refund_ids" text null, add "duplicate_refunded_cents" int null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "billing_subscription" drop column "duplicate_of", drop column "duplicate_refund_ids", drop column "duplicate_refunded_cents";`);
  }

}
