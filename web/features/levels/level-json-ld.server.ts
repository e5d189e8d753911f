import { pictureUrl, STEPS_QUERY, type LevelDetail } from 'src/contracts/levels';
import { stepsId } from 'web/features/levels/puzzle-ids';
import type { Translate } from 'web/i18n/i18n';

/** Plain text of a step's sanitised inline HTML (tags dropped, the few entities it can hold decoded). */
const plain = (html: string) =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]!);

/**
 * The puzzles in an ItemList, the main escape first. With the steps on the page (`?steps=1`), one
 * HowTo per puzzle: schema.org's type for "how to do this one thing", with its steps and step
 * pictures. Without them (the first view shows the questions and their hints), each puzzle is a
 * ListItem naming its question with the URL of its steps: the list form search engines document,
 * and structured data says only what the page shows. Google no longer shows HowTo rich results
 * (2023) and keeps FAQPage for authorities and QAPage for forums, so this is plain, valid
 * schema.org for whoever reads it, not a bid for a rich result; the VideoObject's key moments stay
 * what search engines document for a walkthrough.
 */
function puzzlesList(level: LevelDetail, url: string, withSteps: boolean) {
  return {
    '@type': 'ItemList',
    itemListElement: level.puzzles!.map((puzzle, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      ...(withSteps
        ? {
            item: {
              '@type': 'HowTo',
              name: puzzle.question,
              ...(puzzle.object ? { about: puzzle.object } : {}),
              step: level.steps.slice(puzzle.firstStep, puzzle.firstStep + puzzle.stepCount).map((step) => ({
                '@type': 'HowToStep',
                text: plain(step.html),
                ...(step.picture ? { image: `${new URL(url).origin}${pictureUrl(step.picture, step.picture.widths.at(-1)!, 'webp')}` } : {}),
              })),
            },
          }
        : { name: puzzle.question, url: `${url}?${STEPS_QUERY}=1#${stepsId(puzzle.id)}` }),
    })),
  };
}

/** BreadcrumbList always; the puzzles (their HowTos with `withSteps`) when the guide has puzzles; VideoObject with Clip key moments when the guide has a real video. */
function build(level: LevelDetail, url: string, siteUrl: string, values: Record<string, string | number>, t: Translate, withSteps = true) {
  const breadcrumbs = {
    '@type': 'BreadcrumbList',
    itemListElement: [
      { '@type': 'ListItem', position: 1, name: t('menu.home'), item: `${siteUrl}/` },
      { '@type': 'ListItem', position: 2, name: t('menu.levels'), item: `${siteUrl}/levels` },
      { '@type': 'ListItem', position: 3, name: t('level.number', values), item: url },
    ],
  };
  const graph: unknown[] = [breadcrumbs];
  if (level.puzzles) graph.push(puzzlesList(level, url, withSteps));
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
