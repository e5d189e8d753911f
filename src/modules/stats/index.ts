/** Stats' public face: the site's numbers as a service. No Nest wiring. */
export { StatsService } from './application/stats.service';
