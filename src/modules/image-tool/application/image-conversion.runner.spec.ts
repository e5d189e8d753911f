import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import sharp from 'sharp';
import { loadConfig } from 'src/config/app-config';
import { DEFAULT_IMAGE_OPTIONS, type ImageOptions } from 'src/contracts/images';
import { InMemoryCreditLedger } from 'src/modules/credits/testing/in-memory-credit-ledger';
import { PermanentJobError } from 'src/platform/queue/queue.errors';
import { OnnxSharpImageConverter } from '../adapters/onnx-sharp-image-converter.adapter';
import { SharpImageCodec } from '../adapters/sharp/sharp-image-codec.adapter';
import { SharpStyles } from '../adapters/sharp/sharp-styles';
import { ConversionBudget, MAX_DEADLINE_MS } from '../domain/conversion-budget';
import type { ImageSizePlan } from 'src/contracts/images';
import type { AiModelId, ConversionId, RgbImage } from '../domain/conversions';
import { chargeKey, jobFiles } from '../domain/image-job';
import { InMemoryImageJobRepository } from '../testing/in-memory-image-job-repository';
import { InMemoryImageStore } from '../testing/in-memory-image-store';
import { FakeImageCodec, fakePng } from '../testing/fake-image-codec';
import { FakeImageConverter } from '../testing/fake-image-converter';
import { FakeImageFetcher } from '../testing/fake-image-fetcher';
import { ImageConversionRunner, LOST_JOB_AFTER_MS } from './image-conversion.runner';
import type { ImageToolService } from './image-tool.service';

/**
 * The runner with the real codec and the real converter adapter (its resample and alpha), the
 * network replaced by a nearest-neighbour doubling per x2 model (the ONNX engine has its own
 * spec, test/image-models.int-spec.ts; one real AI run at full size is in test/images.e2e-spec.ts).
 */
class DoublingUpscaler {
  readonly runs: AiModelId[][] = [];
  async upscale(image: RgbImage, models: readonly AiModelId[], signal: AbortSignal, options: { onProgress?: (done: number, total: number) => void } = {}): Promise<RgbImage> {
    this.runs.push([...models]);
    let current = image;
    for (const [i, model] of models.entries()) {
      signal.throwIfAborted();
      if (model.endsWith('-x2')) {
        const { width, height, data } = current;
        const out = new Uint8Array(width * height * 12);
        for (let y = 0; y < height * 2; y++) for (let x = 0; x < width * 2; x++) out.set(data.subarray(((y >> 1) * width + (x >> 1)) * 3, ((y >> 1) * width + (x >> 1)) * 3 + 3), (y * width * 2 + x) * 3);
        current = { data: out, width: width * 2, height: height * 2 };
      }
      options.onProgress?.(i + 1, models.length);
    }
    return current;
  }
  async close() {}
}

const gradient = (width: number, height: number, channels: 3 | 4 = 3) => {
  const data = Buffer.alloc(width * height * channels);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * channels;
      data[i] = (x * 255) / width;
      data[i + 1] = (y * 255) / height;
      data[i + 2] = 128;
      // Left half transparent, right half opaque.
      if (channels === 4) data[i + 3] = x < width / 2 ? 0 : 255;
    }
  }
  return sharp(data, { raw: { width, height, channels } });
};

describe('ImageConversionRunner', () => {
  let jobs: InMemoryImageJobRepository;
  let ledger: InMemoryCreditLedger;
  let store: InMemoryImageStore;
  let upscaler: DoublingUpscaler;
  let fetcher: FakeImageFetcher;
  let runner: ImageConversionRunner;

  beforeEach(async () => {
    ledger = new InMemoryCreditLedger();
    jobs = new InMemoryImageJobRepository(ledger);
    store = new InMemoryImageStore();
    upscaler = new DoublingUpscaler();
    fetcher = new FakeImageFetcher();
    const config = loadConfig({}, { HAS_LOGIN: 'true', HAS_PAYMENT: 'true' });
    const converter = new OnnxSharpImageConverter(upscaler as never, new SharpStyles());
    runner = new ImageConversionRunner(jobs, ledger, store, new SharpImageCodec(), converter, fetcher, {} as ImageToolService, config, new ConversionBudget(1));
    await ledger.grant({ userId: 'u1', source: 'admin', sourceRef: 'admin:u1', credits: 20, validityDays: 30, description: 'Test credits' });
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  /** A job accepted as the service accepts one: its credit held, its upload stored (or its URL kept). */
  async function accepted(conversion: ConversionId, input: Buffer | { url: string }, options: Partial<ImageOptions> = {}) {
    const id = randomUUID();
    await ledger.hold({ userId: 'u1', amount: 1, idempotencyKey: chargeKey(id), description: 'Image' });
    if (Buffer.isBuffer(input)) await store.put(jobFiles(id).input, input, 'application/octet-stream');
    await jobs.create({
      id,
      userId: 'u1',
      conversion,
      source: Buffer.isBuffer(input) ? 'upload' : 'url',
      sourceUrl: Buffer.isBuffer(input) ? null : input.url,
      options: { ...DEFAULT_IMAGE_OPTIONS, ...options },
      inputSha256: null,
      plannedMegapixels: null,
      queuePriority: 1,
    });
    return id;
  }

  const run = (id: string) => runner.run(id, { attempt: 1, attempts: 3 });
  const row = (id: string) => jobs.rows.find((j) => j.id === id)!;
  const charge = (id: string) => ledger.charges.find((c) => c.idempotencyKey === chargeKey(id))!;

  it.each([
    ['a 4032x3024 JPEG photo', 4032, 3024, 'jpeg', {}, [4096, 3072], ['waifu2x-cunet-noise1-x2'], 'jpeg'],
    ['a 1920x1080 PNG', 1920, 1080, 'png', {}, [3840, 2160], ['waifu2x-cunet-x2'], 'png'],
    ['a 3000x200 PNG panorama', 3000, 200, 'png', {}, [4096, 273], ['waifu2x-cunet-x2'], 'png'],
    ['a 600x400 WebP at 1.5x, asked as PNG', 600, 400, 'webp', { scale: 1.5, format: 'png' }, [900, 600], ['waifu2x-cunet-x2'], 'png'],
  ] as const)('brings %s back at least as large: the planned size exactly, in the chosen format, one credit captured', async (_name, width, height, format, options, result, models, resultFormat) => {
    const bytes = await gradient(width, height)[format]().toBuffer();
    const id = await accepted('ai-2x', bytes, options);
    await run(id);
    expect(row(id)).toMatchObject({ status: 'succeeded', inputWidth: Math.min(width, 2048), resultWidth: result[0], resultHeight: result[1], resultFormat, notes: [] });
    expect(upscaler.runs).toEqual([models]);
    const stored = store.files.get(jobFiles(id, resultFormat).result)!;
    expect(stored.contentType).toBe(`image/${resultFormat}`);
    expect(await sharp(stored.bytes).metadata()).toMatchObject({ format: resultFormat, width: result[0], height: result[1] });
    expect(result[0]).toBeGreaterThanOrEqual(width);
    expect(result[1]).toBeGreaterThanOrEqual(height);
    expect(charge(id).state).toBe('captured');
  });

  it('never calls a running job lost before its longest deadline has passed', () => {
    expect(LOST_JOB_AFTER_MS).toBeGreaterThan(MAX_DEADLINE_MS);
  });

  it('keeps transparency: a 1000x1000 PNG with alpha comes back 2000x2000 with its alpha, resampled beside the colour', async () => {
    const id = await accepted('ai-2x-fast', await gradient(1000, 1000, 4).png().toBuffer());
    await run(id);
    expect(row(id)).toMatchObject({ status: 'succeeded', resultWidth: 2000, resultHeight: 2000, resultFormat: 'png' });
    const { data, info } = await sharp(store.files.get(jobFiles(id).result)!.bytes).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([2000, 2000, 4]);
    const alphaAt = (x: number, y: number) => data[(y * 2000 + x) * 4 + 3];
    expect([alphaAt(10, 1000), alphaAt(990, 1000), alphaAt(1010, 1000), alphaAt(1990, 1000)]).toEqual([0, 0, 255, 255]);
    expect(upscaler.runs).toEqual([['waifu2x-upconv7-x2']]);
  });

  it('flattens transparency on white for a JPEG result, and says so; an animated GIF is converted from its first frame, and says so', async () => {
    const flat = await accepted('ai-2x', await gradient(40, 30, 4).png().toBuffer(), { format: 'jpeg', quality: 70 });
    await run(flat);
    expect(row(flat)).toMatchObject({ status: 'succeeded', resultFormat: 'jpeg', notes: ['flattened'] });
    const frames = Buffer.concat([await sharp({ create: { width: 8, height: 6, channels: 3, background: '#00ff00' } }).raw().toBuffer(), await sharp({ create: { width: 8, height: 6, channels: 3, background: '#0000ff' } }).raw().toBuffer()]);
    const gif = await sharp(frames, { raw: { width: 8, height: 12, channels: 3, pageHeight: 6 } }).gif().toBuffer();
    const animated = await accepted('sketch', gif);
    await run(animated);
    expect(row(animated)).toMatchObject({ status: 'succeeded', resultWidth: 8, resultHeight: 6, resultFormat: 'png', notes: ['first-frame'] });
  });

  it('saves progress on the row while it runs, at most about once a second', async () => {
    const id = await accepted('ai-4x', await gradient(50, 40).png().toBuffer());
    await run(id);
    // Two passes reported; the first report is written, the second (the last) too.
    expect(jobs.progress.filter(([job]) => job === id).map(([, done, total]) => [done, total])).toEqual([
      [1, 2],
      [2, 2],
    ]);
    expect(row(id)).toMatchObject({ status: 'succeeded', resultWidth: 200, resultHeight: 160 });
  });

  it("releases the credit when the input is bad, and a second run of a finished job changes nothing", async () => {
    const whole = await gradient(200, 150).jpeg().toBuffer();
    const id = await accepted('ai-2x', whole.subarray(0, Math.floor(whole.length * 0.6)));
    await run(id);
    expect(row(id)).toMatchObject({ status: 'failed', errorCode: 'IMAGES.INVALID_IMAGE' });
    expect(charge(id).state).toBe('released');
    const balance = await ledger.balance('u1');
    await run(id);
    expect([row(id).status, charge(id).state, await ledger.balance('u1'), row(id).attempts]).toEqual(['failed', 'released', balance, 1]);
  });

  it('fails a URL job asking an enlargement of an image past 4096 px with IMAGES.WOULD_NOT_ENLARGE, credit returned', async () => {
    fetcher.responses.set('https://images.example/big.png', await gradient(4200, 300).png({ compressionLevel: 1 }).toBuffer());
    const id = await accepted('ai-2x', { url: 'https://images.example/big.png' });
    await run(id);
    expect(row(id)).toMatchObject({ status: 'failed', errorCode: 'IMAGES.WOULD_NOT_ENLARGE' });
    expect(charge(id).state).toBe('released');
    expect(upscaler.runs).toEqual([]);
  });

  it('answers a URL job whose image this user converted the same way within 24 hours: the result copied, the hold released', async () => {
    const bytes = await gradient(60, 40).png().toBuffer();
    fetcher.responses.set('https://images.example/a.png', bytes);
    fetcher.responses.set('https://mirror.example/a.png', bytes);
    const first = await accepted('ai-2x', { url: 'https://images.example/a.png' }, { format: 'webp' });
    await run(first);
    expect(charge(first).state).toBe('captured');
    // Its result's size is known only once fetched: recorded for the queue estimate (120 x 80 px).
    expect(jobs.plans.get(first)).toBeCloseTo(0.0096, 6);
    const again = await accepted('ai-2x', { url: 'https://mirror.example/a.png' }, { format: 'webp' });
    await run(again);
    expect(row(again)).toMatchObject({ status: 'succeeded', repeatOf: first, resultWidth: 120, resultFormat: 'webp', notes: ['repeat-credit-returned'], repeatConvertedAt: row(first).finishedAt });
    expect(charge(again).state).toBe('released');
    expect(store.files.get(jobFiles(again, 'webp').result)!.bytes).toEqual(store.files.get(jobFiles(first, 'webp').result)!.bytes);
    expect(upscaler.runs).toHaveLength(1);
    // Other settings: converted, and charged.
    const other = await accepted('ai-2x', { url: 'https://mirror.example/a.png' }, { format: 'png' });
    await run(other);
    expect([row(other).repeatOf, charge(other).state, upscaler.runs.length]).toEqual([null, 'captured', 2]);
  });
});

/**
 * The credit's way through a job, on the fakes (a codec without pixels, a converter whose failures
 * the test picks): held when accepted, captured with the success, released once when the job
 * fails for good, and a finished job run again changes nothing.
 */
describe('ImageConversionRunner: the credit of a job', () => {
  let jobs: InMemoryImageJobRepository;
  let ledger: InMemoryCreditLedger;
  let store: InMemoryImageStore;
  let converter: FakeImageConverter;
  let runner: ImageConversionRunner;

  /** A deadline short enough to pass within a test (the real one is at least a minute). */
  class ShortBudget extends ConversionBudget {
    override deadlineMs(_conversion: ConversionId, _plan: ImageSizePlan) {
      return 50;
    }
  }

  beforeEach(async () => {
    ledger = new InMemoryCreditLedger();
    jobs = new InMemoryImageJobRepository(ledger);
    store = new InMemoryImageStore();
    converter = new FakeImageConverter();
    const config = loadConfig({}, { HAS_LOGIN: 'true', HAS_PAYMENT: 'true' });
    runner = new ImageConversionRunner(jobs, ledger, store, new FakeImageCodec(), converter, new FakeImageFetcher(), {} as ImageToolService, config, new ShortBudget(1));
    await ledger.grant({ userId: 'u1', source: 'admin', sourceRef: 'admin:u1', credits: 5, validityDays: 30, description: 'Test credits' });
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  async function accepted(): Promise<string> {
    const id = randomUUID();
    await ledger.hold({ userId: 'u1', amount: 1, idempotencyKey: chargeKey(id), description: 'Image' });
    await store.put(jobFiles(id).input, fakePng(40, 30), 'application/octet-stream');
    await jobs.create({ id, userId: 'u1', conversion: 'sketch', source: 'upload', sourceUrl: null, options: DEFAULT_IMAGE_OPTIONS, inputSha256: null, plannedMegapixels: null, queuePriority: 1 });
    return id;
  }
  const run = (id: string, attempt = 1) => runner.run(id, { attempt, attempts: 3 });
  /** The job's status and attempts, its charge's state, and the balance. */
  const state = async (id: string) => {
    const job = (await jobs.findById(id))!;
    return [job.status, job.attempts, ledger.charges.find((c) => c.idempotencyKey === chargeKey(id))!.state, await ledger.balance('u1')];
  };

  it('keeps the credit held while the job waits, and captures it with the success', async () => {
    const id = await accepted();
    expect(await state(id)).toEqual(['queued', 0, 'held', 4]);
    await run(id);
    expect(await state(id)).toEqual(['succeeded', 1, 'captured', 4]);
    expect(store.files.has(jobFiles(id).result)).toBe(true);
  });

  it('runs a succeeded job again for nothing: no second conversion, the credit stays captured', async () => {
    const id = await accepted();
    await run(id);
    await run(id, 2);
    expect(await state(id)).toEqual(['succeeded', 1, 'captured', 4]);
    expect(converter.requests).toHaveLength(1);
    // The queue's verdict arriving late (a stalled duplicate) cannot undo the success.
    await runner.failedForGood(id);
    expect(await state(id)).toEqual(['succeeded', 1, 'captured', 4]);
  });

  it('leaves the credit held after a failed attempt that may be retried, and releases it once when the attempts run out', async () => {
    const id = await accepted();
    converter.failWith = new Error('disk went away');
    await expect(run(id)).rejects.toThrow('disk went away');
    expect(await state(id)).toEqual(['running', 1, 'held', 4]);
    await runner.failedForGood(id);
    expect(await state(id)).toEqual(['failed', 1, 'released', 5]);
    expect((await jobs.findById(id))!.errorCode).toBe('IMAGES.CONVERSION_FAILED');
    await runner.failedForGood(id);
    await run(id, 2);
    expect(await state(id)).toEqual(['failed', 1, 'released', 5]);
    expect(converter.requests).toHaveLength(1);
  });

  it('fails a conversion past its deadline for good, without retries, and releases the credit', async () => {
    const id = await accepted();
    converter.hang = true;
    await expect(run(id)).rejects.toBeInstanceOf(PermanentJobError);
    expect(await state(id)).toEqual(['failed', 1, 'released', 5]);
    expect((await jobs.findById(id))!.errorCode).toBe('IMAGES.TOO_SLOW');
  });

  it('releases the credit of a job whose upload is gone, at once: the user\'s outcome, not a retry', async () => {
    const id = await accepted();
    await store.delete(jobFiles(id).input);
    await run(id);
    expect(await state(id)).toEqual(['failed', 1, 'released', 5]);
    expect((await jobs.findById(id))!.errorCode).toBe('IMAGES.INVALID_IMAGE');
  });
});
