/**
 * The plan table: every limit of every plan, in one place. `perPeriod` of a per-seat plan is per
 * seat. `perDay` null = no daily cap (every plan has a period allowance).
 */
import type { PlanId } from '../../context.js';

export interface PlanLimits {
  id: PlanId;
  name: string;
  perDay: number | null;
  perPeriod: number;
  perMinute: number;
  /** The period quota is multiplied by the workspace's seats. */
  perSeat: boolean;
  /** Free and anonymous plans count over a rolling 30 days; paid plans over the billing window. */
  paid: boolean;
}

export const PLANS: Record<PlanId, PlanLimits> = {
  anonymous: { id: 'anonymous', name: 'Anonymous', perDay: 5, perPeriod: 20, perMinute: 3, perSeat: false, paid: false },
  free: { id: 'free', name: 'Free', perDay: 20, perPeriod: 600, perMinute: 10, perSeat: false, paid: false },
  professional: { id: 'professional', name: 'Professional', perDay: null, perPeriod: 5_000, perMinute: 300, perSeat: true, paid: true },
  professional_plus: { id: 'professional_plus', name: 'Professional Plus', perDay: null, perPeriod: 25_000, perMinute: 600, perSeat: true, paid: true },
  developer_pro: { id: 'developer_pro', name: 'Developer Pro', perDay: null, perPeriod: 100_000, perMinute: 600, perSeat: false, paid: true },
  developer_scale: { id: 'developer_scale', name: 'Developer Scale', perDay: null, perPeriod: 600_000, perMinute: 1_000, perSeat: false, paid: true },
};

/** The plan of a stored plan id; unknown ids (a plan retired later) fall back to Free. */
export function planOf(id: string): PlanLimits {
  return PLANS[id as PlanId] ?? PLANS.free;
}

export const ROLLING_PERIOD_MS = 30 * 24 * 3600 * 1000;
