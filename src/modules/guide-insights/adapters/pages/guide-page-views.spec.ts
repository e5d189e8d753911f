import { loadConfig } from 'src/config/app-config';
import { PageViews } from 'src/platform/pages/page-views';
import type { GuideViews } from '../../application/guide-views.service';
import { GUIDE_ROUTE_ID, GuidePageViews } from './guide-page-views';

/** The listener as the module starts it, on a real PageViews, counting into a list. */
function started(searchMax = 635) {
  const counted: number[] = [];
  const views = { count: (level: number) => void counted.push(level) } as unknown as GuideViews;
  const pageViews = new PageViews();
  new GuidePageViews(views, pageViews, loadConfig({ LEVEL_SEARCH_MAX: String(searchMax) })).onModuleInit();
  return { counted, pageViews };
}

describe('GuidePageViews: a view of the guide page counts its level', () => {
  it('listens for the guide route and counts the level of its id parameter', () => {
    const { counted, pageViews } = started();
    expect(pageViews.watched(GUIDE_ROUTE_ID)).toBe(true);
    expect(pageViews.watched('guide-report')).toBe(false);
    pageViews.viewed(GUIDE_ROUTE_ID, { id: '27' });
    pageViews.viewed('guide-report', { id: '27' });
    expect(counted).toEqual([27]);
  });

  it('counts only level numbers in range, as the page itself takes them', () => {
    const { counted, pageViews } = started(635);
    for (const id of ['636', '027', '0', 'x', '']) pageViews.viewed(GUIDE_ROUTE_ID, { id });
    pageViews.viewed(GUIDE_ROUTE_ID, {});
    pageViews.viewed(GUIDE_ROUTE_ID, { id: '635' });
    expect(counted).toEqual([635]);
  });
});
