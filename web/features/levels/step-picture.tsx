import type { MouseEvent } from 'react';
import { formatDuration, pictureUrl, type StepPicture as Picture } from 'src/contracts/levels';
import { useT } from 'web/i18n/i18n';

/** The steps' column: 640 px on a wide screen, the viewport less the margins and the step number on a phone. */
const SIZES = '(min-width:768px) 640px,90vw';

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
    <figure className="relative mt-3 max-w-xl overflow-hidden rounded-xl">
      <picture>
        <source type="image/avif" srcSet={srcSet('avif')} sizes={SIZES} />
        <source type="image/webp" srcSet={srcSet('webp')} sizes={SIZES} />
        <img src={pictureUrl(picture, fallback, 'webp')} width={picture.width} height={picture.height} alt={picture.alt} loading="lazy" decoding="async" className="h-auto w-full" />
      </picture>
      {picture.marks.map((mark, i) => {
        const label = t('picture.tapHere', { label: mark.label });
        const style = { left: `${mark.x}%`, top: `${mark.y}%`, width: `${mark.r * 2}%` };
        const chip = <span aria-hidden="true">{mark.label}</span>;
        return at !== undefined ? (
          <a key={i} href={`${href}#walkthrough`} onClick={watch} style={style} className="tap-mark" aria-label={`${label}. ${t('level.watchAt', { time: formatDuration(at) })}`}>
            {chip}
          </a>
        ) : (
          <span key={i} style={style} className="tap-mark" role="img" aria-label={label}>
            {chip}
          </span>
        );
      })}
    </figure>
  );
}
