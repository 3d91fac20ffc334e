/**
 * When an account's e-mail address was first proven (src/modules/accounts/email-proof.ts).
 * Accounts already verified: without a password they were created by an identity provider (or
 * the development sign-in) with a verified address, proven when created; verified password
 * accounts were verified at a time not recorded, so they count as proven now. A later reset
 * keeps only keys made after that instant: keys made before this migration are revoked at the
 * account's next reset (the mail names them), which ends keys a squatter made before this fix.
 */
import { Migration } from '@mikro-orm/migrations';

export class Migration20261127100443_email_proven_at extends Migration {

  override name = 'Migration20261127100443_email_proven_at';

  override up(): void | Promise<void> {
    this.addSql(`alter table "app_user" add "email_proven_at" timestamptz null;`);
    this.addSql(`update "app_user" set "email_proven_at" = case when "password_hash" is null then "created_at" else now() end where "email_verified";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "app_user" drop column "email_proven_at";`);
  }

}
