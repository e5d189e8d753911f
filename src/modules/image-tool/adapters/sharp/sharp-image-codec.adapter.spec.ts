import { crc32, deflateSync } from 'node:zlib';
import sharp, { type Sharp } from 'sharp';
import { InvalidImageError } from 'src/modules/image-tool/domain/image-tool.errors';
import { DAMAGED, NOT_AN_IMAGE, SharpImageCodec, TOO_MANY_BYTES, TOO_MANY_PIXELS, fromPlanes, fromRgb, sniffImageFormat } from './sharp-image-codec.adapter';

const codec = new SharpImageCodec();

const solid = (width: number, height: number, background: string) => sharp({ create: { width, height, channels: 3, background } });

/** Left half red, right half blue: shows where a rotation put things. */
async function halves(width: number, height: number): Promise<Sharp> {
  const half = await solid(width / 2, height, '#0000ff').png().toBuffer();
  return solid(width, height, '#ff0000').composite([{ input: half, left: width / 2, top: 0 }]);
}

/** Pseudo-random pixels (deterministic), so a JPEG has real entropy-coded data to truncate. */
function noise(width: number, height: number): Sharp {
  const data = Buffer.alloc(width * height * 3);
  let x = 12345;
  for (let i = 0; i < data.length; i++) data[i] = (x = (x * 1103515245 + 12345) >>> 0) >>> 24;
  return sharp(data, { raw: { width, height, channels: 3 } });
}

/**
 * A decompression bomb: a valid 1-bit greyscale PNG of width x height, all black, built with zlib
 * in milliseconds (sharp takes seconds to encode 144 MP). A few kilobytes claim 144 megapixels.
 */
function pngBomb(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  const rows = Buffer.alloc((1 + Math.ceil(width / 8)) * height); // filter byte 0 and zero bits per row
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(rows, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

/** Decoded at its own size (or fitted to `side`, as a plan shrinks an input), the header read first as the runner does. */
async function decodeAt(bytes: Uint8Array, side = Infinity) {
  const { width, height } = await codec.probe(bytes);
  const ratio = Math.min(1, side / Math.max(width, height));
  return codec.decode(bytes, { width: Math.max(1, Math.round(width * ratio)), height: Math.max(1, Math.round(height * ratio)) });
}

async function refusal(bytes: Uint8Array): Promise<InvalidImageError> {
  const error: unknown = await decodeAt(bytes).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InvalidImageError);
  return error as InvalidImageError;
}

const pixel = (image: { data: Uint8Array; width: number }, x: number, y: number) => Array.from(image.data.subarray((y * image.width + x) * 3, (y * image.width + x) * 3 + 3));

describe('SharpImageCodec.decode', () => {
  it('applies the EXIF orientation and reports the size as displayed', async () => {
    // Stored 40x20, left red and right blue; orientation 6 displays it turned 90 degrees clockwise.
    const jpeg = await (await halves(40, 20)).jpeg({ quality: 95 }).withMetadata({ orientation: 6 }).toBuffer();
    expect((await sharp(jpeg).metadata()).orientation).toBe(6);

    const decoded = await decodeAt(jpeg);

    expect(decoded).toMatchObject({ header: { format: 'jpeg', width: 20, height: 40, animated: false }, shrunk: false });
    expect([decoded.image.width, decoded.image.height]).toEqual([20, 40]);
    expect(decoded.image.data.length).toBe(20 * 40 * 3);
    const [r, , b] = pixel(decoded.image, 10, 5);
    expect(r).toBeGreaterThan(200); // the left (red) half is now on top
    expect(b).toBeLessThan(60);
    expect(pixel(decoded.image, 10, 35)[2]).toBeGreaterThan(200);
  });

  it('keeps alpha as its own plane, and none for an opaque image with an alpha channel', async () => {
    const rgba = Buffer.alloc(4 * 2 * 4, 255);
    rgba.set([255, 0, 0, 255], 0); // opaque red
    rgba.set([255, 0, 0, 0], 4); // fully transparent red
    rgba.set([0, 0, 0, 128], 8); // half-transparent black
    const png = await sharp(rgba, { raw: { width: 4, height: 2, channels: 4 } }).png().toBuffer();

    const { image, header } = await decodeAt(png);

    expect(header.format).toBe('png');
    expect(pixel(image, 0, 0)).toEqual([255, 0, 0]);
    expect(pixel(image, 1, 0)).toEqual([255, 0, 0]);
    expect(pixel(image, 2, 0)).toEqual([0, 0, 0]);
    expect(Array.from(image.alpha!.subarray(0, 4))).toEqual([255, 0, 128, 255]);
    const opaque = await sharp(Buffer.alloc(4 * 4 * 4, 255), { raw: { width: 4, height: 4, channels: 4 } }).png().toBuffer();
    expect((await decodeAt(opaque)).image.alpha).toBeNull();
  });

  it('converts colour to sRGB from an embedded ICC profile (Display P3)', async () => {
    // sRGB red stored in Display P3 is about (234, 51, 35): decoded, it is sRGB red again.
    const p3 = await solid(16, 16, '#ff0000').withIccProfile('p3').jpeg({ quality: 100 }).toBuffer();
    const stored = await sharp(p3).keepIccProfile().raw().toBuffer();
    const [r, g] = [stored[0]!, stored[1]!];
    expect(r).toBeLessThan(245);
    expect(g).toBeGreaterThan(30);
    const [dr, dg, db] = pixel((await decodeAt(p3)).image, 8, 8);
    expect(dr).toBeGreaterThan(248);
    expect(dg).toBeLessThan(12);
    expect(db).toBeLessThan(12);
  });

  it('takes the first frame of an animated GIF', async () => {
    const frames = Buffer.concat([await solid(8, 6, '#00ff00').raw().toBuffer(), await solid(8, 6, '#0000ff').raw().toBuffer()]);
    const gif = await sharp(frames, { raw: { width: 8, height: 12, channels: 3, pageHeight: 6 } })
      .gif()
      .toBuffer();
    expect((await sharp(gif).metadata()).pages).toBe(2);

    const decoded = await decodeAt(gif);

    expect(decoded).toMatchObject({ header: { format: 'gif', width: 8, height: 6, animated: true } });
    expect([decoded.image.width, decoded.image.height]).toEqual([8, 6]);
    const [r, g, b] = pixel(decoded.image, 4, 3);
    expect([r! < 30, g! > 220, b! < 30]).toEqual([true, true, true]);
  });

  it('decodes WebP', async () => {
    const webp = await solid(30, 10, '#808080').webp().toBuffer();
    const decoded = await decodeAt(webp);
    expect(decoded).toMatchObject({ header: { format: 'webp', width: 30, height: 10, animated: false }, shrunk: false });
  });

  it('shrinks to exactly the size asked and says so, never enlarges', async () => {
    const jpeg = await noise(3000, 2000).jpeg({ quality: 80 }).toBuffer();

    const decoded = await codec.decode(jpeg, { width: 512, height: 341 });

    expect(decoded).toMatchObject({ header: { width: 3000, height: 2000 }, shrunk: true });
    expect([decoded.image.width, decoded.image.height]).toEqual([512, 341]);
    expect(decoded.image.data.length).toBe(512 * 341 * 3);
    await expect(codec.decode(jpeg, { width: 3001, height: 2000 })).rejects.toThrow(RangeError);
  });

  it('never enlarges: a 1x1 image stays 1x1', async () => {
    const decoded = await decodeAt(await solid(1, 1, '#123456').png().toBuffer());
    expect(decoded).toMatchObject({ header: { width: 1, height: 1 }, shrunk: false, image: { width: 1, height: 1 } });
    expect(pixel(decoded.image, 0, 0)).toEqual([0x12, 0x34, 0x56]);
  });

  it('turns greyscale and 16-bit input into 8-bit RGB', async () => {
    const grey16 = await solid(5, 4, '#404040').toColourspace('grey16').png().toBuffer();
    expect((await sharp(grey16).metadata()).depth).toBe('ushort');

    const { image } = await decodeAt(grey16);

    expect(image.data.length).toBe(5 * 4 * 3);
    expect(pixel(image, 2, 2)).toEqual([0x40, 0x40, 0x40]);
  });

  it('refuses a 12000x12000 PNG bomb from its header, in milliseconds', async () => {
    const bomb = pngBomb(12_000, 12_000);
    expect(bomb.length).toBeLessThan(50_000);
    const header = await sharp(bomb, { limitInputPixels: false }).metadata();
    expect([header.format, header.width, header.height]).toEqual(['png', 12_000, 12_000]);

    const started = performance.now();
    const error = await refusal(bomb);
    const elapsed = performance.now() - started;

    expect(error.message).toBe(TOO_MANY_PIXELS);
    expect(error.code).toBe('IMAGES.INVALID_IMAGE');
    expect(error.reason).toMatch(/pixel limit|12000x12000/);
    expect(elapsed).toBeLessThan(250);
  });

  it('refuses an SVG, even one that starts like an XML document', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>';
    expect((await refusal(Buffer.from(svg))).message).toBe(NOT_AN_IMAGE);
    expect((await refusal(Buffer.from(`<?xml version="1.0"?>\n${svg}`))).message).toBe(NOT_AN_IMAGE);
  });

  it('refuses text, empty files and formats it does not take (TIFF)', async () => {
    expect((await refusal(Buffer.from('hello, this is not an image\n'))).message).toBe(NOT_AN_IMAGE);
    const empty = await refusal(Buffer.alloc(0));
    expect([empty.message, empty.reason]).toEqual([NOT_AN_IMAGE, 'empty file']);
    expect((await refusal(await solid(4, 4, '#fff').tiff().toBuffer())).message).toBe(NOT_AN_IMAGE);
  });

  it('refuses more than 10 MB of bytes before looking at them', async () => {
    const big = Buffer.alloc(10 * 1024 * 1024 + 1);
    big.set([0xff, 0xd8, 0xff]);
    expect((await refusal(big)).message).toBe(TOO_MANY_BYTES);
  });

  it('refuses a truncated JPEG or PNG as damaged', async () => {
    const jpeg = await noise(200, 200).jpeg({ quality: 90 }).toBuffer();
    const cutJpeg = await refusal(jpeg.subarray(0, Math.floor(jpeg.length / 2)));
    expect(cutJpeg.message).toBe(DAMAGED);
    expect(cutJpeg.reason).toMatch(/jpeg/i);

    const png = await noise(200, 200).png().toBuffer();
    expect((await refusal(png.subarray(0, Math.floor(png.length / 2)))).message).toBe(DAMAGED);
  });

  it('refuses garbage behind a valid magic number', async () => {
    const fake = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('not really a png at all')]);
    expect((await refusal(fake)).message).toBe(DAMAGED);
    const fakeJpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 7)]);
    expect((await refusal(fakeJpeg)).message).toBe(DAMAGED);
  });

  it('accepts a Uint8Array view, not only a Buffer', async () => {
    const png = await solid(3, 2, '#00ff00').png().toBuffer();
    const padded = new Uint8Array(png.length + 10);
    padded.set(png, 10);
    const decoded = await decodeAt(padded.subarray(10));
    expect(pixel(decoded.image, 1, 1)).toEqual([0, 255, 0]);
  });
});

describe('SharpImageCodec.probe', () => {
  it('reads format and displayed size from the header alone', async () => {
    const jpeg = await (await halves(40, 20)).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    expect(await codec.probe(jpeg)).toEqual({ format: 'jpeg', width: 20, height: 40, animated: false });
  });

  it('refuses what decode refuses before decoding', async () => {
    await expect(codec.probe(pngBomb(12_000, 12_000))).rejects.toMatchObject({ message: TOO_MANY_PIXELS });
    await expect(codec.probe(Buffer.from('<svg/>'))).rejects.toMatchObject({ message: NOT_AN_IMAGE });
    await expect(codec.probe(Buffer.alloc(0))).rejects.toBeInstanceOf(InvalidImageError);
  });
});

describe('sniffImageFormat', () => {
  it.each([
    ['jpeg', [0xff, 0xd8, 0xff, 0xe0]],
    ['png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
    ['webp', Array.from('RIFF\0\0\0\0WEBPVP8 ', (c) => c.charCodeAt(0))],
    ['gif', Array.from('GIF89a', (c) => c.charCodeAt(0))],
    ['gif', Array.from('GIF87a', (c) => c.charCodeAt(0))],
    [null, Array.from('RIFF\0\0\0\0WAVEfmt ', (c) => c.charCodeAt(0))],
    [null, Array.from('<svg', (c) => c.charCodeAt(0))],
    [null, [0x49, 0x49, 0x2a, 0x00]],
    [null, [0xff, 0xd8]],
  ])('%s for %j', (format, bytes) => {
    expect(sniffImageFormat(Uint8Array.from(bytes))).toBe(format);
  });
});

describe('SharpImageCodec encoders', () => {
  const image = { width: 300, height: 200, data: new Uint8Array(300 * 200 * 3).map((_, i) => (i * 7) % 256), alpha: null };
  const withAlpha = { ...image, alpha: new Uint8Array(300 * 200).map((_, i) => (i % 300 < 150 ? 0 : 255)) };

  it('encodes lossless PNG, alpha kept, tagged sRGB, without EXIF', async () => {
    const { bytes: png, flattened } = await codec.encode(image, { format: 'png', quality: 90 });
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    expect([info.format, info.width, info.height, info.channels]).toEqual(['raw', 300, 200, 3]);
    expect(Buffer.compare(data, Buffer.from(image.data))).toBe(0);
    expect(flattened).toBe(false);
    const metadata = await sharp(png).metadata();
    expect(metadata).toMatchObject({ format: 'png', hasProfile: true });
    expect(metadata.exif).toBeUndefined();
    const rgba = await sharp((await codec.encode(withAlpha, { format: 'png', quality: 90 })).bytes).raw().toBuffer({ resolveWithObject: true });
    expect(rgba.info.channels).toBe(4);
    expect([rgba.data[3], rgba.data[(200 * 4) + 3]]).toEqual([0, 255]);
  });

  it('honours the format and the quality: WebP with alpha, JPEG flattened on white', async () => {
    const webp = await codec.encode(withAlpha, { format: 'webp', quality: 80 });
    expect(await sharp(webp.bytes).metadata()).toMatchObject({ format: 'webp', hasAlpha: true, hasProfile: true });
    const noisy = { width: 256, height: 256, data: new Uint8Array(256 * 256 * 3).map((_, i) => (i * 2654435761) >>> 24), alpha: null };
    const [low, high] = [await codec.encode(noisy, { format: 'jpeg', quality: 30 }), await codec.encode(noisy, { format: 'jpeg', quality: 95 })];
    expect(low.bytes.length).toBeLessThan(high.bytes.length / 2);
    const jpeg = await codec.encode(withAlpha, { format: 'jpeg', quality: 90 });
    expect(jpeg.flattened).toBe(true);
    const { data, info } = await sharp(jpeg.bytes).raw().toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(3);
    // The transparent left half is white now.
    expect(Array.from(data.subarray((100 * 300 + 20) * 3, (100 * 300 + 20) * 3 + 3)).every((v) => v > 245)).toBe(true);
  });

  it('drops GPS, camera and dates: a photo with EXIF comes back with none', async () => {
    const photo = await noise(64, 48)
      .jpeg()
      .withExif({ IFD0: { Make: 'Phone', Model: 'X1', DateTime: '2026:11:28 10:00:00' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 24/1', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 3/1' } })
      .toBuffer();
    expect((await sharp(photo).metadata()).exif?.toString('latin1')).toContain('Phone');
    const decoded = await decodeAt(photo);
    for (const format of ['jpeg', 'png', 'webp'] as const) {
      const { bytes } = await codec.encode(decoded.image, { format, quality: 90 });
      const metadata = await sharp(bytes).metadata();
      expect(metadata.exif).toBeUndefined();
      expect(bytes.toString('latin1')).not.toContain('Phone');
      expect(bytes.toString('latin1')).not.toContain('2026:11:28');
    }
  });

  it('makes a JPEG thumbnail with the longest side given, never enlarged', async () => {
    const thumb = await codec.thumbnail(withAlpha, 120);
    expect(await sharp(thumb).metadata()).toMatchObject({ format: 'jpeg', width: 120, height: 80 });
    const small = await codec.thumbnail({ width: 2, height: 1, data: new Uint8Array(6), alpha: null }, 120);
    expect(await sharp(small).metadata()).toMatchObject({ width: 2, height: 1 });
  });

  it('refuses pixels whose length does not match their size', () => {
    expect(() => fromRgb({ width: 2, height: 2, data: new Uint8Array(11) })).toThrow(RangeError);
    expect(() => fromPlanes({ width: 2, height: 2, data: new Uint8Array(12), alpha: new Uint8Array(3) })).toThrow(RangeError);
  });
});

describe('SharpImageCodec.configureSharpForWorkers', () => {
  // Process-wide settings: put back what other tests in this process (SVG preview cards) rely on.
  afterAll(() => {
    sharp.unblock({ operation: ['VipsForeignLoad'] });
    sharp.concurrency(0);
    sharp.cache(true);
  });

  it('runs one thread per image, caches nothing, and loads only the four formats', async () => {
    SharpImageCodec.configureSharpForWorkers();

    expect(sharp.concurrency()).toBe(1);
    expect(sharp.cache()).toMatchObject({ memory: { max: 0 }, items: { max: 0 } });
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
    await expect(sharp(svg).metadata()).rejects.toThrow(/unsupported image format/);
    await expect(sharp(await solid(4, 4, '#fff').tiff().toBuffer()).metadata()).rejects.toThrow(/unsupported image format/);
    for (const encoded of [
      await solid(4, 4, '#fff').jpeg().toBuffer(),
      await solid(4, 4, '#fff').png().toBuffer(),
      await solid(4, 4, '#fff').webp().toBuffer(),
      await solid(4, 4, '#fff').gif().toBuffer(),
    ]) {
      expect((await decodeAt(encoded)).image.width).toBe(4);
    }
  });

  it('leaves the loaders alone for the web process (SVG preview cards)', async () => {
    sharp.unblock({ operation: ['VipsForeignLoad'] });
    SharpImageCodec.configureSharpForWorkers({ onlyImageLoaders: false });

    expect(sharp.concurrency()).toBe(1);
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
    expect((await sharp(svg).metadata()).format).toBe('svg');
  });
});
