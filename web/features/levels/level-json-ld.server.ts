import type { LevelDetail } from 'src/contracts/levels';
import type { Translate } from 'web/i18n/i18n';

/** BreadcrumbList always; VideoObject with Clip key moments when the guide has a real video. */
function build(level: LevelDetail, url: string, siteUrl: string, values: Record<string, string | number>, t: Translate) {
  const breadcrumbs = {
    '@type': 'BreadcrumbList',
    itemListElement: [
      { '@type': 'ListItem', position: 1, name: t('menu.home'), item: `${siteUrl}/` },
      { '@type': 'ListItem', position: 2, name: t('menu.levels'), item: `${siteUrl}/levels` },
      { '@type': 'ListItem', position: 3, name: t('level.number', values), item: url },
    ],
  };
  const graph: unknown[] = [breadcrumbs];
  // A sample placeholder is no video: search engines get VideoObject only for real walkthroughs.
  if (level.video && !level.video.sample) {
    const timed = level.steps.filter((s) => s.atSeconds !== undefined);
    graph.push({
      '@type': 'VideoObject',
      name: level.video.title,
      description: t('level.videoDescription', values),
      thumbnailUrl: `${siteUrl}/og/levels/${level.number}.png`,
      uploadDate: level.verifiedOn,
      duration: `PT${level.video.durationSeconds}S`,
      embedUrl: `https://www.youtube-nocookie.com/embed/${level.video.youtubeId}`,
      hasPart: timed.map((step, i) => ({
        '@type': 'Clip',
        name: t('level.step', { number: level.steps.indexOf(step) + 1 }),
        startOffset: step.atSeconds,
        endOffset: timed[i + 1]?.atSeconds ?? level.video!.durationSeconds,
        url: `${url}?t=${step.atSeconds}`,
      })),
    });
  }
  return { '@context': 'https://schema.org', '@graph': graph };
}

/**
 * Undefined in the browser (the client build empties *.server.ts modules): structured data is for
 * crawlers reading the server's HTML, and hydration keeps that text (JsonLd).
 */
const levelJsonLd: typeof build | undefined = build;
export default levelJsonLd;
