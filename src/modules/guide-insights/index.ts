/** Guide insights' public face: guide views and the admin overview as services, ports and types. No Nest wiring. */
export { GuideInsightsService } from './application/guide-insights.service';
export { GuideViews } from './application/guide-views.service';
export { GuideInsightsReader } from './domain/guide-insights-reader.port';
export { GuideViewLog } from './domain/guide-view-log.port';
