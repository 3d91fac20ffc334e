/**
 * The plan a request runs under: an administrator's override (table `plan_override`, see
 * src/modules/admin/plan-override.service.ts) while one exists, else the plan the subscription
 * gives (`app_user.plan`, written by billing). Both authenticators select it through this one
 * expression, so the override takes effect on the account's next request, limits included.
 */
export function effectivePlanSql(userAlias: string): string {
  return `coalesce((select o.plan from plan_override o where o.user_id = ${userAlias}.id), ${userAlias}.plan) as plan`;
}
