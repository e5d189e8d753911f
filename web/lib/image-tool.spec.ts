import { IMAGE_CONVERSIONS, IMAGE_MAX_BYTES, IMAGE_URL_HINT, IMAGE_WAIT_NOTICE } from 'src/contracts/images';
import { imageUrlSchema } from 'src/contracts/images.schema';
import { interpolate } from 'web/i18n/i18n';
import account from 'web/i18n/messages/account/en';
import {
  checkImageFile,
  CONVERSION_KEYS,
  estimateWords,
  clockTime,
  DEFAULT_CHOICES,
  downloadName,
  estimatePath,
  expectedTimeWords,
  hasQuality,
  isAnimatedWebp,
  keptNotes,
  reportedProgress,
  requestFields,
  requestOf,
  resultFormatOf,
  widthProblem,
  formatBytes,
  jobFileUrl,
  pollDelay,
  progressOf,
  queueWords,
  submitProblem,
  type Words,
} from './image-tool';

const say = (words: Words | null) => (words ? interpolate(account[words.key], words.values) : null);

describe('the image tool', () => {
  it('carries the spec copy exactly', () => {
    expect(account['image.waitNotice']).toBe(IMAGE_WAIT_NOTICE);
    expect(account['image.urlHint']).toBe(IMAGE_URL_HINT);
    expect(account['image.tabUpload']).toBe('Upload');
    expect(account['image.tabUrl']).toBe('Image URL');
  });

  it('names and describes every conversion', () => {
    for (const conversion of IMAGE_CONVERSIONS) {
      expect(account[CONVERSION_KEYS[conversion].name]).toBeTruthy();
      expect(account[CONVERSION_KEYS[conversion].description]).toBeTruthy();
    }
    expect(account[CONVERSION_KEYS['ai-2x'].name]).toBe('AI upscale');
  });

  it('lets JPEG, PNG, WebP and GIF files up to 10 MB through, and says what is wrong with others', () => {
    const file = (name: string, type: string, size = 1000) => ({ name, type, size });
    for (const type of ['image/jpeg', 'image/png', 'image/webp', 'image/gif']) expect(checkImageFile(file('a', type))).toBeNull();
    expect(checkImageFile(file('a.png', 'image/png', IMAGE_MAX_BYTES))).toBeNull();
    expect(checkImageFile(file('a.png', 'image/png', IMAGE_MAX_BYTES + 1))).toBe('image.fileTooLarge');
    expect(checkImageFile(file('a.png', 'image/png', 0))).toBe('image.fileEmpty');
    expect(checkImageFile(file('a.svg', 'image/svg+xml'))).toBe('image.fileType');
    expect(checkImageFile(file('notes.txt', 'text/plain'))).toBe('image.fileType');
    expect(checkImageFile(file('a.heic', 'image/heic'))).toBe('image.fileType');
    // No type from the browser: judged by the name.
    expect(checkImageFile(file('photo.JPG', ''))).toBeNull();
    expect(checkImageFile(file('photo', ''))).toBe('image.fileType');
  });

  it('writes sizes as the 10 MB limit is written', () => {
    expect(formatBytes(IMAGE_MAX_BYTES, 'en-US')).toBe('10 MB');
    expect(formatBytes(2.4 * 1024 * 1024, 'en-US')).toBe('2.4 MB');
    expect(formatBytes(350 * 1024, 'en-US')).toBe('350 KB');
    expect(formatBytes(10, 'en-US')).toBe('1 KB');
  });

  it('makes the request of the choices: AI upscale at 4x is the 4x conversion, defaults are not sent, classic styles take no size', () => {
    expect(requestOf(DEFAULT_CHOICES)).toEqual({ conversion: 'ai-2x', options: { scale: null, width: null, noise: 'auto', format: 'auto', quality: 90 } });
    expect(requestOf({ ...DEFAULT_CHOICES, size: { kind: 'scale', scale: 4 } }).conversion).toBe('ai-4x');
    expect(requestOf({ ...DEFAULT_CHOICES, size: { kind: 'scale', scale: 4 } }).options.scale).toBeNull();
    expect(requestOf({ ...DEFAULT_CHOICES, choice: 'ai-2x-fast', size: { kind: 'scale', scale: 4 } })).toMatchObject({ conversion: 'ai-2x-fast', options: { scale: 4 } });
    expect(requestOf({ ...DEFAULT_CHOICES, size: { kind: 'scale', scale: 1 } }).options.scale).toBe(1);
    expect(requestOf({ ...DEFAULT_CHOICES, size: { kind: 'width', width: '1600' } }).options).toMatchObject({ scale: null, width: 1600 });
    expect(requestOf({ ...DEFAULT_CHOICES, choice: 'sketch', size: { kind: 'scale', scale: 3 }, noise: 'high' })).toEqual({
      conversion: 'sketch',
      options: { scale: null, width: null, noise: 'auto', format: 'auto', quality: 90 },
    });
  });

  it('sends only the fields that differ from the defaults, quality only where it applies', () => {
    const request = requestOf({ ...DEFAULT_CHOICES, size: { kind: 'scale', scale: 3 }, noise: 'high', format: 'webp', quality: 75 });
    expect(requestFields(request)).toEqual({ conversion: 'ai-2x', scale: 3, noise: 'high', format: 'webp', quality: 75 });
    expect(requestFields(requestOf(DEFAULT_CHOICES))).toEqual({ conversion: 'ai-2x' });
    // A PNG result has no quality; 'auto' of a PNG input is PNG.
    expect(requestFields(requestOf({ ...DEFAULT_CHOICES, format: 'png', quality: 50 }))).toEqual({ conversion: 'ai-2x', format: 'png' });
    expect(requestFields(requestOf({ ...DEFAULT_CHOICES, quality: 50 }), 'image/png')).toEqual({ conversion: 'ai-2x' });
    expect(requestFields(requestOf({ ...DEFAULT_CHOICES, quality: 50 }), 'image/jpeg')).toEqual({ conversion: 'ai-2x', quality: 50 });
  });

  it('checks an exact width', () => {
    expect(widthProblem({ kind: 'scale', scale: 2 })).toBeNull();
    expect(widthProblem({ kind: 'width', width: '1600' })).toBeNull();
    for (const width of ['', '0', '4097', '12.5', 'abc']) expect(widthProblem({ kind: 'width', width })).toBe('image.widthInvalid');
    expect(account['image.widthInvalid']).toContain('{max}');
  });

  it("knows the result's format: auto keeps JPEG and WebP, gives PNG for PNG and GIF, unknown for a URL", () => {
    expect(resultFormatOf('auto', 'image/jpeg')).toBe('jpeg');
    expect(resultFormatOf('auto', 'image/webp')).toBe('webp');
    expect(resultFormatOf('auto', 'image/gif')).toBe('png');
    expect(resultFormatOf('auto', undefined)).toBeNull();
    expect(resultFormatOf('jpeg', 'image/png')).toBe('jpeg');
    expect(hasQuality('auto', 'image/png')).toBe(false);
    expect(hasQuality('auto', undefined)).toBe(true);
  });

  it('asks the estimate for the conversion, the image size and the size wanted', () => {
    expect(estimatePath(requestOf(DEFAULT_CHOICES), 4032, 3024)).toBe('/api/v1/images/estimate?conversion=ai-2x&width=4032&height=3024');
    expect(estimatePath(requestOf({ ...DEFAULT_CHOICES, size: { kind: 'scale', scale: 1.5 } }), 800, 600)).toBe('/api/v1/images/estimate?conversion=ai-2x&width=800&height=600&scale=1.5');
    expect(estimatePath(requestOf({ ...DEFAULT_CHOICES, size: { kind: 'width', width: '1200' } }), 800, 600)).toContain('&width_out=1200');
  });

  it('says the expected time as "about 25 s (20–40 s)", in minutes past 90 s', () => {
    expect(say(expectedTimeWords({ low: 19.6, typical: 25.2, high: 40 }))).toBe('about 25 s (20–40 s)');
    expect(say(expectedTimeWords({ low: 3, typical: 3.2, high: 3.4 }))).toBe('about 3 s');
    expect(say(expectedTimeWords({ low: 50, typical: 100, high: 200 }))).toBe('about 2 min (1–3 min)');
    expect(expectedTimeWords(null)).toBeNull();
  });

  it('says what is kept, what JPEG loses and that an animation gives its first frame', () => {
    const png = { type: 'image/png', alpha: true, animated: false };
    expect(keptNotes(png, 'png').map((key) => account[key])).toEqual(['Orientation applied, colours converted to sRGB, transparency kept (PNG/WebP), location and camera details removed']);
    expect(keptNotes(png, 'jpeg')).toContain('image.jpegNoAlpha');
    expect(account['image.jpegNoAlpha']).toBe('JPEG has no transparency: transparent parts become white');
    expect(keptNotes({ ...png, alpha: false }, 'jpeg')).not.toContain('image.jpegNoAlpha');
    expect(keptNotes({ type: 'image/gif', alpha: false, animated: false }, 'png')).toContain('image.firstFrame');
    expect(keptNotes({ type: 'image/webp', alpha: false, animated: true }, 'webp')).toContain('image.firstFrame');
    expect(keptNotes({ type: 'image/webp', alpha: false, animated: false }, 'webp')).not.toContain('image.firstFrame');
    expect(account['image.firstFrame']).toBe('Only the first frame of an animated image is converted');
    // A URL's image may be transparent: JPEG's note shows.
    expect(keptNotes(null, 'jpeg')).toContain('image.jpegNoAlpha');
  });

  it('knows an animated WebP by its header', () => {
    const header = (flags: number) => new Uint8Array([...Buffer.from('RIFF'), 0, 0, 0, 0, ...Buffer.from('WEBPVP8X'), 10, 0, 0, 0, flags]);
    expect(isAnimatedWebp(header(0x02))).toBe(true);
    expect(isAnimatedWebp(header(0x10))).toBe(false);
    expect(isAnimatedWebp(new Uint8Array([...Buffer.from('RIFF'), 0, 0, 0, 0, ...Buffer.from('WEBPVP8 '), 0, 0, 0, 0, 2]))).toBe(false);
    expect(isAnimatedWebp(new Uint8Array(4))).toBe(false);
  });

  it('names the download by its format and gives the repeat time on the 24-hour clock', () => {
    const job = { id: '1a2b3c4d-0000-0000-0000-000000000000', conversion: 'ai-2x' as const };
    expect(downloadName({ ...job, result_format: 'jpeg' })).toBe('ai-2x-1a2b3c4d.jpg');
    expect(downloadName({ ...job, result_format: 'webp' })).toBe('ai-2x-1a2b3c4d.webp');
    expect(downloadName({ ...job, result_format: null })).toBe('ai-2x-1a2b3c4d.png');
    const at = new Date(2026, 10, 28, 14, 2).toISOString();
    expect(clockTime(at, 'en-US')).toBe('14:02');
    expect(clockTime(new Date(2026, 10, 28, 21, 5).toISOString(), 'en-GB')).toBe('21:05');
    expect(interpolate(account['image.repeat'], { time: '14:02' })).toBe('You converted this image at 14:02: here it is again, no credit used');
  });

  it("shows a running job's reported progress", () => {
    expect(reportedProgress({ status: 'running', progress: { done: 3, total: 12 } })).toBe(0.25);
    expect(reportedProgress({ status: 'running', progress: { done: 0, total: 0 } })).toBeNull();
    expect(reportedProgress({ status: 'queued', progress: null })).toBeNull();
  });

  it('tells where the job stands in the queue', () => {
    const queue = (position: number, estimate_seconds: number | null) => ({ position, estimate_seconds, estimate_range: null });
    expect(say(queueWords({ status: 'queued', queue: queue(2, 12) }))).toBe('2 jobs ahead of yours');
    expect(say(queueWords({ status: 'queued', queue: queue(1, null) }))).toBe('1 job ahead of yours');
    expect(say(queueWords({ status: 'queued', queue: queue(0, null) }))).toBe('Yours is next');
    expect(say(queueWords({ status: 'queued', queue: null }))).toBe('Yours is next');
    expect(say(queueWords({ status: 'running', queue: queue(0, 4) }))).toBe('Converting your image now');
  });

  it('puts the estimate in words, and nothing without one', () => {
    expect(say(estimateWords(null))).toBeNull();
    expect(say(estimateWords(undefined))).toBeNull();
    expect(say(estimateWords({ low: Number.NaN, high: 3 }))).toBeNull();
    expect(say(estimateWords({ low: 0.2, high: 0.4 }))).toBe('almost ready');
    expect(say(estimateWords({ low: 7.2, high: 7.9 }))).toBe('ready in about 8 s');
    expect(say(estimateWords({ low: 16.5, high: 21.9 }))).toBe('ready in 17–22 s');
    expect(say(estimateWords({ low: 40, high: 89 }))).toBe('ready in 40–89 s');
    expect(say(estimateWords({ low: 100, high: 150 }))).toBe('ready in 2–3 min');
  });

  it('shows progress only while running with an estimate, and never reaches the end by itself', () => {
    const running = { status: 'running' as const, queue: null };
    expect(progressOf({ status: 'queued', queue: null }, 3, 10)).toBeNull();
    expect(progressOf(running, 3, null)).toBeNull();
    expect(progressOf(running, 5, 10)).toBe(0.5);
    expect(progressOf(running, 60, 10)).toBe(0.95);
  });

  it('asks every second, and more slowly after failures', () => {
    expect(pollDelay(0)).toBe(1000);
    expect(pollDelay(1)).toBe(2000);
    expect(pollDelay(3)).toBe(8000);
    expect(pollDelay(10)).toBe(10_000);
  });

  it("addresses the job's files on the API", () => {
    expect(jobFileUrl('j1', 'preview')).toBe('/api/v1/images/j1/preview');
    expect(jobFileUrl('j1', 'result', true)).toBe('/api/v1/images/j1/result?download=1');
    expect(jobFileUrl('a/b', 'thumbnail')).toBe('/api/v1/images/a%2Fb/thumbnail');
  });

  it('has words of its own for too large and too many', () => {
    expect(submitProblem(413, undefined)).toBe('image.fileTooLarge');
    expect(submitProblem(429, 'IMAGES.TOO_MANY_UNFINISHED')).toBe('image.tooMany');
    expect(submitProblem(429, 'RATE_LIMITED')).toBe('image.rateLimited');
    expect(submitProblem(400, 'IMAGES.INVALID_IMAGE')).toBeNull();
  });

  it('accepts http(s) image addresses and gives the hint for anything else', () => {
    expect(imageUrlSchema.safeParse(' https://example.com/a.png ').data).toBe('https://example.com/a.png');
    for (const bad of ['', 'example.com/a.png', 'ftp://example.com/a.png', 'javascript:alert(1)', 'https://']) {
      const parsed = imageUrlSchema.safeParse(bad);
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe(IMAGE_URL_HINT);
    }
  });
});
