import { formatDuration, type Walkthrough } from 'src/contracts/levels';
import { useT } from 'web/i18n/i18n';
import { Icon } from './icons';

/**
 * The walkthrough video behind a click: nothing is loaded from YouTube until the player asks for it.
 * `start` (seconds) comes from a guide step's "watch" button; changing it seeks by reloading. Real
 * videos only: a sample guide's placeholder never reaches it. Offline, a short note stands in for the player.
 */
export function VideoFacade({
  video,
  start,
  onStart,
}: {
  video: Walkthrough;
  start: number | null;
  onStart: (seconds: number) => void;
}) {
  const t = useT();
  // Offline (<html data-offline>), the note shows instead of the player: CSS only, no script on the guide page.
  const note = <p className="hidden rounded-2xl bg-gray-50 p-5 offline:block dark:bg-gray-900">{t('video.offline')}</p>;
  if (start !== null) {
    const src = `https://www.youtube-nocookie.com/embed/${encodeURIComponent(video.youtubeId)}?autoplay=1&rel=0&start=${Math.floor(start)}`;
    return (
      <>
      {note}
      <iframe
        key={start}
        src={src}
        title={video.title}
        className="aspect-video w-full rounded-2xl bg-black offline:hidden"
        allow="accelerometer; autoplay; encrypted-media; gyroscope; picture-in-picture"
        allowFullScreen
        referrerPolicy="strict-origin-when-cross-origin"
      />
      </>
    );
  }
  return (
    <>
    {note}
    <button
      type="button"
      onClick={() => onStart(0)}
      className="group relative flex aspect-video w-full flex-col items-center justify-center gap-3 overflow-hidden rounded-2xl bg-gradient-to-br from-gray-900 via-gray-800 to-primary-950 text-white offline:hidden"
    >
      <span className="flex size-16 items-center justify-center rounded-full bg-primary-500 text-gray-950 shadow-lg transition group-hover:scale-105">
        <Icon name="play" className="size-7 translate-x-0.5" />
      </span>
      <span className="px-6 text-center font-semibold">{video.title}</span>
      <span className="absolute right-3 bottom-3 rounded bg-black/70 px-1.5 py-0.5 text-xs font-medium">
        {formatDuration(video.durationSeconds)}
      </span>
      <span className="sr-only">{t('video.play')}</span>
    </button>
    </>
  );
}
