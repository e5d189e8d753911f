import { useId, useRef, useState, type DragEvent } from 'react';
import { IMAGE_MAX_BYTES } from 'src/contracts/images';
import { mutedClass } from 'web/components/account-ui';
import { Icon } from 'web/components/icons';
import { useAccountI18n } from 'web/i18n/account-messages';
import { ACCEPTED_IMAGE_TYPES, checkImageFile, formatBytes, isAnimatedWebp, type ImageTraits } from 'web/lib/image-tool';
import { Chosen, Glyph } from 'web/features/image-tool/image-tool-common';

/**
 * The drop zone and file picker, and the chosen file with its size (what it will give is the plan
 * below). Where there is no hover (a touch screen) there is nothing to drop onto: it says "Choose
 * an image" there, decided in CSS so the server's HTML is right for both.
 */
export function UploadPanel({ chosen, missing, onChoose }: { chosen: Chosen | null; missing: boolean; onChoose: (chosen: Chosen | null) => void }) {
  const { t, tag } = useAccountI18n();
  const id = useId();
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const current = useRef<File | null>(null);
  const max = formatBytes(IMAGE_MAX_BYTES, tag);

  const choose = (file: File | undefined) => {
    if (!file) return;
    const problem = checkImageFile(file);
    const next: Chosen = { file, problem: problem && t(problem, { max }) };
    current.current = file;
    onChoose(next);
    if (!problem) void readImage(file).then((read) => current.current === file && read && onChoose({ ...next, ...read }));
  };
  const remove = () => {
    current.current = null;
    onChoose(null);
    if (input.current) input.current.value = '';
    input.current?.focus();
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    choose(event.dataTransfer.files[0]);
  };

  const error = missing ? t('image.fileMissing') : chosen?.problem;
  return (
    <div>
      <label
        htmlFor={`${id}-file`}
        onDragOver={(event) => {
          event.preventDefault();
          event.dataTransfer.dropEffect = 'copy';
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-dragging={dragging || undefined}
        data-invalid={error ? true : undefined}
        className="flex cursor-pointer flex-col items-center justify-center gap-2 rounded-2xl border-2 border-dashed border-gray-300 bg-gray-50 px-4 py-10 text-center transition hover:border-primary-500 hover:bg-primary-50/50 has-focus-visible:border-primary-500 has-focus-visible:ring-2 has-focus-visible:ring-primary-500/30 data-dragging:border-primary-500 data-dragging:bg-primary-50 data-invalid:border-red-400 dark:border-gray-700 dark:bg-gray-900 dark:hover:bg-primary-950/30 dark:data-dragging:bg-primary-950/50 dark:data-invalid:border-red-500"
      >
        <span className="flex size-12 items-center justify-center rounded-full bg-primary-100 text-primary-700 dark:bg-primary-900 dark:text-primary-300">
          <Glyph name="upload" className="size-6" />
        </span>
        {dragging ? (
          <span className="font-semibold">{t('image.dropActive')}</span>
        ) : (
          <>
            <span className="font-semibold pointer-coarse:hidden [@media(hover:none)]:hidden" data-testid="image-drop-text">
              {t('image.drop')}
            </span>
            <span className="hidden font-semibold pointer-coarse:inline [@media(hover:none)]:inline" data-testid="image-choose-text">
              {t('image.dropTouch')}
            </span>
          </>
        )}
        <span id={`${id}-hint`} className={`text-sm ${mutedClass}`}>
          {t('image.dropHint', { max })}
        </span>
        <input
          ref={input}
          id={`${id}-file`}
          type="file"
          name="file"
          accept={ACCEPTED_IMAGE_TYPES.join(',')}
          onChange={(event) => choose(event.target.files?.[0])}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
          data-testid="image-file"
          className="sr-only"
        />
      </label>
      {error && (
        <p id={`${id}-error`} role="alert" className="mt-2 text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
      {chosen && (
        <div className="mt-4 flex items-center gap-4 rounded-2xl border border-gray-200 p-3 dark:border-gray-800" data-testid="image-chosen">
          {chosen.thumbnail ? (
            <img src={chosen.thumbnail} alt="" className="size-16 shrink-0 rounded-lg bg-gray-100 object-cover dark:bg-gray-800" />
          ) : (
            <span className="flex size-16 shrink-0 items-center justify-center rounded-lg bg-gray-100 text-gray-400 dark:bg-gray-800" aria-hidden="true">
              <Icon name="eye" className="size-6" />
            </span>
          )}
          <div className="min-w-0 flex-1">
            <p className="truncate font-medium">{chosen.file.name}</p>
            <p className={`text-sm ${mutedClass}`}>
              {chosen.width && chosen.height
                ? t('image.fileSize', { width: chosen.width, height: chosen.height, size: formatBytes(chosen.file.size, tag) })
                : formatBytes(chosen.file.size, tag)}
            </p>
          </div>
          <button
            type="button"
            onClick={remove}
            aria-label={t('image.removeLabel', { name: chosen.file.name })}
            className="shrink-0 rounded-full px-3 py-1.5 text-sm font-semibold text-gray-600 hover:bg-gray-100 dark:text-gray-300 dark:hover:bg-gray-800"
          >
            {t('image.remove')}
          </button>
        </div>
      )}
    </div>
  );
}

/**
 * The size of a chosen image, a small preview drawn on a canvas (a data: URL, which the site's
 * content security policy allows where a blob: URL is not), and what it is: transparent anywhere
 * (read from the preview's pixels), animated (a GIF always counts; a WebP by its header). Null when
 * the browser cannot decode it (the server has the last word on what it accepts).
 */
async function readImage(file: File): Promise<{ width: number; height: number; thumbnail?: string; traits: ImageTraits } | null> {
  if (typeof createImageBitmap !== 'function') return null;
  try {
    const bitmap = await createImageBitmap(file);
    const { width, height } = bitmap;
    let thumbnail: string | undefined;
    let alpha: boolean | null = null;
    const scale = Math.min(1, 128 / Math.max(width, height));
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(width * scale));
    canvas.height = Math.max(1, Math.round(height * scale));
    const context = canvas.getContext('2d');
    if (context) {
      context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
      thumbnail = canvas.toDataURL('image/png');
      alpha = file.type !== 'image/jpeg' && hasTransparency(context.getImageData(0, 0, canvas.width, canvas.height).data);
    }
    bitmap.close();
    const animated = file.type === 'image/gif' ? true : file.type === 'image/webp' ? isAnimatedWebp(new Uint8Array(await file.slice(0, 32).arrayBuffer())) : false;
    return { width, height, thumbnail, traits: { type: file.type, alpha, animated } };
  } catch {
    return null;
  }
}

function hasTransparency(pixels: Uint8ClampedArray): boolean {
  for (let i = 3; i < pixels.length; i += 4) if (pixels[i]! < 255) return true;
  return false;
}
