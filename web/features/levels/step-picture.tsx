import type { MouseEvent } from 'react';
import { formatDuration, pictureUrl, type StepPicture as Picture } from 'src/contracts/levels';
import { useT } from 'web/i18n/i18n';

/** The steps' column: 640 px on a wide screen, the viewport less the margins and the step number on a phone. */
const SIZES = '(min-width: 768px) 640px, calc(100vw - 6rem)';

interface Props {
  picture: Picture;
  /** The guide's page, for a mark's link to the video moment. */
  href: string;
  /** The step's moment in a real walkthrough video, when there is one: each mark links to it. */
  at?: number;
  onWatch: (seconds: number) => void;
}

/**
 * A step's picture with its tap marks drawn over it (not burned in: they scale with it, read in
 * light and dark, and screen readers hear "Tap here: the hinge"). Lazy: pictures sit in the folded
 * solution, so a guide adds no picture bytes until its steps are opened; width and height are set,
 * so nothing shifts when one arrives.
 */
export function StepPicture({ picture, href, at, onWatch }: Props) {
  const t = useT();
  const srcSet = (format: 'avif' | 'webp') => picture.widths.map((w) => `${pictureUrl(picture, w, format)} ${w}w`).join(',');
  const fallback = picture.widths[Math.min(1, picture.widths.length - 1)]!;
  const watch = (event: MouseEvent) => {
    event.preventDefault();
    onWatch(at!);
  };
  return (
    <figure className="relative mt-3 max-w-xl overflow-hidden rounded-xl border border-gray-200 dark:border-gray-800">
      <picture>
        <source type="image/avif" srcSet={srcSet('avif')} sizes={SIZES} />
        <source type="image/webp" srcSet={srcSet('webp')} sizes={SIZES} />
        <img src={pictureUrl(picture, fallback, 'webp')} width={picture.width} height={picture.height} alt={picture.alt} loading="lazy" decoding="async" className="block h-auto w-full" />
      </picture>
      {picture.marks.map((mark, i) => {
        const label = t('picture.tapHere', { label: mark.label });
        const style = { left: `${mark.x}%`, top: `${mark.y}%`, width: `${mark.r * 2}%` };
        const ring = 'absolute aspect-square -translate-x-1/2 -translate-y-1/2 rounded-full border-[3px] border-white shadow-[0_0_0_3px_rgb(0_0_0/0.75)]';
        const chip = (
          <span className="absolute top-full left-1/2 mt-1 -translate-x-1/2 rounded bg-gray-950/85 px-1.5 py-0.5 text-xs font-semibold whitespace-nowrap text-white" aria-hidden="true">
            {mark.label}
          </span>
        );
        return at !== undefined ? (
          <a key={i} href={`${href}#walkthrough`} onClick={watch} style={style} className={`${ring} focus-visible:outline-4 focus-visible:outline-primary-500`} aria-label={`${label}. ${t('level.watchAt', { time: formatDuration(at) })}`}>
            {chip}
          </a>
        ) : (
          <span key={i} style={style} className={ring} role="img" aria-label={label}>
            {chip}
          </span>
        );
      })}
    </figure>
  );
}
