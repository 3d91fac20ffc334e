/** Partner analytics (issue #35): the recorder the usage guard feeds, the queries, the partners. */
import path from 'node:path';
import type { MikroORM } from '@mikro-orm/core';
import type { Logger } from '../../logger.js';
import type { OperationLimiter } from '../usage/operation-limits.js';
import type { UsageService } from '../usage/usage.service.js';
import { AnalyticsRecorder } from './analytics-recorder.js';
import { AnalyticsService } from './analytics.service.js';
import { PartnersService } from './partners.service.js';

export interface AnalyticsModule {
  recorder: AnalyticsRecorder;
  analytics: AnalyticsService;
  partners: PartnersService;
  /** Shutdown: the last events written (after the last request, before the database closes). */
  close(): Promise<void>;
}

/** Builds the module and plugs its recorder into the usage guard, so every door's billable calls are recorded once. */
export async function createAnalyticsModule(deps: { orm: MikroORM; usage: UsageService; limits: OperationLimiter; dataDir: string; logger: Logger }): Promise<AnalyticsModule> {
  const recorder = new AnalyticsRecorder(deps.orm, deps.logger, { spillDir: path.join(deps.dataDir, 'usage-spill') });
  await recorder.start();
  deps.usage.useObserver(recorder);
  return {
    recorder,
    analytics: new AnalyticsService({ pending: recorder, limits: deps.limits }),
    partners: new PartnersService({ limits: deps.limits }),
    close: () => recorder.close(),
  };
}
