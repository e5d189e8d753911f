import { IMAGE_CONVERSIONS, IMAGE_MAX_BYTES, IMAGE_URL_HINT, IMAGE_WAIT_NOTICE } from 'src/contracts/images';
import { imageUrlSchema } from 'src/contracts/images.schema';
import { interpolate } from 'web/i18n/i18n';
import pages from 'web/i18n/messages/pages/en';
import {
  checkImageFile,
  CONVERSION_KEYS,
  estimateWords,
  fitWithin,
  formatBytes,
  jobFileUrl,
  pollDelay,
  progressOf,
  queueWords,
  submitProblem,
  type Words,
} from './image-tool';

const say = (words: Words | null) => (words ? interpolate(pages[words.key], words.values) : null);

describe('the image tool', () => {
  it('carries the spec copy exactly', () => {
    expect(pages['image.waitNotice']).toBe(IMAGE_WAIT_NOTICE);
    expect(pages['image.urlHint']).toBe(IMAGE_URL_HINT);
    expect(pages['image.tabUpload']).toBe('Upload');
    expect(pages['image.tabUrl']).toBe('Image URL');
  });

  it('names and describes every conversion', () => {
    for (const conversion of IMAGE_CONVERSIONS) {
      expect(pages[CONVERSION_KEYS[conversion].name]).toBeTruthy();
      expect(pages[CONVERSION_KEYS[conversion].description]).toBeTruthy();
    }
    expect(pages[CONVERSION_KEYS['ai-2x'].name]).toBe('AI upscale 2x');
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

  it("shrinks an image to the conversion's bound, keeping its shape", () => {
    expect(fitWithin(400, 300, 'ai-2x')).toEqual({ width: 400, height: 300, shrunk: false });
    expect(fitWithin(512, 512, 'ai-2x')).toEqual({ width: 512, height: 512, shrunk: false });
    expect(fitWithin(1024, 768, 'ai-2x')).toEqual({ width: 512, height: 384, shrunk: true });
    expect(fitWithin(300, 1200, 'ai-4x')).toEqual({ width: 64, height: 256, shrunk: true });
    expect(fitWithin(4000, 10, 'ai-4x')).toEqual({ width: 256, height: 1, shrunk: true });
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
