import { Injectable } from '@nestjs/common';
import {
  GUIDES_PAGE_SIZE,
  OPEN_REPORTS_SHOWN,
  RECENT_VIEW_DAYS,
  stuckMost,
  type GuideInsightRow,
  type GuideInsightsData,
  type GuideInsightsQuery,
} from 'src/contracts/guide-insights';
import { HELPFUL_SHARE_MIN_VOTES, helpfulShare } from 'src/contracts/levels';
import { GuideReportsService } from 'src/modules/guide-reports';
import { LevelsService } from 'src/modules/levels';
import { GuideInsightsReader, type GuideInsightRecord } from '../domain/guide-insights-reader.port';
import { guideOrder } from '../domain/guide-order';
import { utcDay } from '../domain/guide-view-tally';

const DAY_MS = 24 * 60 * 60 * 1000;

const toRow = (record: GuideInsightRecord): Omit<GuideInsightRow, 'reports' | 'stuck_at' | 'ladders'> => ({
  level: record.level,
  title: record.title,
  difficulty: record.difficulty,
  views_recent: record.viewsRecent,
  views_total: record.viewsTotal,
  votes: record.votes,
  helpful_votes: record.helpfulVotes,
  // The same figure the guide page shows.
  helpful_percent: helpfulShare(record.helpfulVotes, record.votes)?.percent ?? null,
  not_helpful_reasons: record.notHelpfulReasons,
  open_reports: record.openReports,
  solved: record.solved,
  stuck: record.stuck,
});

/**
 * /admin/guides: every published guide with its views, helpful share and reasons, open reports and
 * solved/stuck counts, sorted in the database (worst first by default) and paged; and the most
 * requested levels without a guide, read through the same LevelsService method as
 * `npm run content:wanted`, so the two lists cannot disagree.
 */
@Injectable()
export class GuideInsightsService {
  constructor(
    private readonly reader: GuideInsightsReader,
    private readonly reports: GuideReportsService,
    private readonly levels: LevelsService,
  ) {}

  async overview(query: GuideInsightsQuery, now = Date.now()): Promise<GuideInsightsData> {
    // The last 30 UTC days, today included.
    const recentSince = utcDay(now - (RECENT_VIEW_DAYS - 1) * DAY_MS);
    const [{ rows, total }, wanted] = await Promise.all([
      this.reader.page(guideOrder(query.sort, query.dir), recentSince, GUIDES_PAGE_SIZE, (query.page - 1) * GUIDES_PAGE_SIZE),
      this.levels.mostRequested(),
    ]);
    const [reports, stops] = await Promise.all([
      this.reports.newestOpen(
        rows.filter((row) => row.openReports > 0).map((row) => row.level),
        OPEN_REPORTS_SHOWN,
      ),
      this.reader.ladderStops(rows.map((row) => row.level)),
    ]);
    return {
      query,
      guides: {
        items: rows.map((row) => {
          const ladders = stops.get(row.level) ?? [];
          return { ...toRow(row), reports: reports.get(row.level) ?? [], stuck_at: stuckMost(ladders), ladders };
        }),
        total,
        page: query.page,
        pages: Math.max(1, Math.ceil(total / GUIDES_PAGE_SIZE)),
      },
      wanted: wanted.map((row) => ({ level: row.level, requests: row.requests, last_requested_at: row.lastRequestedAt.toISOString() })),
      recent_days: RECENT_VIEW_DAYS,
      min_votes: HELPFUL_SHARE_MIN_VOTES,
    };
  }
}
