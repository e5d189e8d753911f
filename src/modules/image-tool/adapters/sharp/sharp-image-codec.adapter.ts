import { Injectable } from '@nestjs/common';
import sharp, { type Sharp, type SharpOptions } from 'sharp';
import type { RgbaPlanes, RgbImage } from 'src/modules/image-tool/domain/conversions';
import { ImageCodec, type DecodedInput, type EncodeOptions, type ImageHeader } from 'src/modules/image-tool/domain/image-codec.port';
import { InvalidImageError } from 'src/modules/image-tool/domain/image-tool.errors';

type AcceptedFormat = ImageHeader['format'];

export const MAX_INPUT_BYTES = 10 * 1024 * 1024;
export const MAX_INPUT_PIXELS = 24_000_000;
/** A decode that takes longer than this is a hostile or broken file, not a photo. */
const DECODE_TIMEOUT_SECONDS = 20;

export const NOT_AN_IMAGE = 'This file is not a JPEG, PNG, WebP or GIF image';
export const TOO_MANY_PIXELS = 'The image is too large: at most 24 megapixels';
export const TOO_MANY_BYTES = 'The image file is too large: at most 10 MB';
export const DAMAGED = 'The image file is damaged';

/** The libvips loaders we accept from memory; every other loader (SVG, PDF, TIFF, HEIF, ...) is blocked in workers. */
const ALLOWED_LOADERS = ['VipsForeignLoadJpegBuffer', 'VipsForeignLoadPngBuffer', 'VipsForeignLoadWebpBuffer', 'VipsForeignLoadNsgifBuffer'];

const INPUT_OPTIONS: SharpOptions = {
  limitInputPixels: MAX_INPUT_PIXELS,
  failOn: 'warning',
  sequentialRead: true,
  // The first frame of an animated GIF or WebP.
  animated: false,
};

/** The format the bytes claim by their magic numbers; names, extensions and MIME types are never trusted. */
export function sniffImageFormat(bytes: Uint8Array): AcceptedFormat | null {
  const starts = (offset: number, ...values: number[]) => values.every((value, i) => bytes[offset + i] === value);
  const ascii = (offset: number, text: string) => starts(offset, ...Array.from(text, (c) => c.charCodeAt(0)));
  if (starts(0, 0xff, 0xd8, 0xff)) return 'jpeg';
  if (starts(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  if (ascii(0, 'RIFF') && ascii(8, 'WEBP')) return 'webp';
  if (ascii(0, 'GIF87a') || ascii(0, 'GIF89a')) return 'gif';
  return null;
}

/**
 * Untrusted bytes to pixels with sharp (libvips). The order is the defence: byte size, magic
 * numbers, then the header alone (format and pixel count, so a 12000x12000 "decompression bomb"
 * is refused before a pixel is decoded), then the decode with `failOn: 'warning'` and a timeout.
 * Every refusal is an InvalidImageError: a message for the user, the cause in `reason`.
 */
@Injectable()
export class SharpImageCodec extends ImageCodec {
  /**
   * Once at start where images are converted. libvips runs one thread per image (one CPU-heavy job
   * per core; the web process must not starve) and keeps no operation cache (inputs are never seen
   * twice; the cache only holds memory). With `onlyImageLoaders` (the default, for the worker
   * process) libvips loads nothing but JPEG, PNG, WebP and GIF from memory: defence in depth behind
   * the magic-number check. Pass false in the web process when it runs jobs itself: its level
   * preview cards are SVG rendered by sharp. Process-wide: the native module is loaded once.
   */
  static configureSharpForWorkers({ onlyImageLoaders = true }: { onlyImageLoaders?: boolean } = {}): void {
    sharp.concurrency(1);
    sharp.cache(false);
    if (onlyImageLoaders) {
      sharp.block({ operation: ['VipsForeignLoad'] });
      sharp.unblock({ operation: ALLOWED_LOADERS });
    }
  }

  /** Size and magic-number checks, then the header alone: no pixel is decoded. The size is as displayed (EXIF orientation applied). */
  async probe(bytes: Uint8Array): Promise<ImageHeader> {
    if (bytes.length === 0) throw new InvalidImageError(NOT_AN_IMAGE, 'empty file');
    if (bytes.length > MAX_INPUT_BYTES) throw new InvalidImageError(TOO_MANY_BYTES, `${bytes.length} bytes`);
    const format = sniffImageFormat(bytes);
    if (!format) throw new InvalidImageError(NOT_AN_IMAGE, `unknown magic bytes ${Buffer.from(bytes.subarray(0, 8)).toString('hex')}`);
    const metadata = await sharp(asBuffer(bytes), INPUT_OPTIONS)
      .metadata()
      .catch((error: unknown) => {
        throw refusal(error, `${format} header`);
      });
    if (metadata.format !== format) throw new InvalidImageError(NOT_AN_IMAGE, `magic bytes say ${format}, libvips says ${metadata.format}`);
    const { width, height } = metadata.autoOrient;
    if (!width || !height) throw new InvalidImageError(DAMAGED, `${format} header without dimensions`);
    if (width * height > MAX_INPUT_PIXELS) throw new InvalidImageError(TOO_MANY_PIXELS, `${width}x${height} pixels`);
    return { format, width, height, animated: (metadata.pages ?? 1) > 1 };
  }

  /**
   * The displayed picture (EXIF orientation applied) in sRGB (converted from its ICC profile, if
   * any), shrunk only to `size` (Lanczos3, alpha premultiplied while resampling), alpha kept as
   * its own plane (null when there is none or it is opaque everywhere), first frame only.
   */
  async decode(bytes: Uint8Array, size: { width: number; height: number }): Promise<DecodedInput> {
    const header = await this.probe(bytes);
    if (!(size.width >= 1 && size.height >= 1 && size.width <= header.width && size.height <= header.height)) {
      throw new RangeError(`Cannot decode ${header.width}x${header.height} to ${size.width}x${size.height}: inputs are never enlarged`);
    }
    const shrunk = size.width !== header.width || size.height !== header.height;
    let pipeline = sharp(asBuffer(bytes), INPUT_OPTIONS).timeout({ seconds: DECODE_TIMEOUT_SECONDS }).autoOrient();
    if (shrunk) pipeline = pipeline.resize({ width: size.width, height: size.height, fit: 'fill', kernel: 'lanczos3' });
    // Raw output carries no metadata; an embedded ICC profile is applied on the way to sRGB.
    const { data, info } = await pipeline
      .toColourspace('srgb')
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true })
      .catch((error: unknown) => {
        throw refusal(error, `${header.format} decode`);
      });
    if (info.channels !== 3 && info.channels !== 4) throw new InvalidImageError(DAMAGED, `decoded to ${info.channels} channels`);
    if (info.width !== size.width || info.height !== size.height) throw new Error(`Decoded ${info.width}x${info.height}, not ${size.width}x${size.height}`);
    return { image: splitAlpha(new Uint8Array(data.buffer, data.byteOffset, data.length), info.width, info.height, info.channels), header, shrunk };
  }

  /** sRGB tagged (the ICC profile), nothing else: no EXIF, so no GPS, camera or dates. */
  async encode(image: RgbaPlanes, { format, quality }: EncodeOptions): Promise<{ bytes: Buffer; flattened: boolean }> {
    const flattened = format === 'jpeg' && image.alpha !== null;
    let pipeline = fromPlanes(image);
    if (flattened) pipeline = pipeline.flatten({ background: '#ffffff' });
    pipeline = pipeline.withIccProfile('srgb');
    const bytes = await (format === 'png'
      ? pipeline.png({ compressionLevel: 6 })
      : format === 'webp'
        ? pipeline.webp({ quality })
        : // Full colour resolution at high quality, where 4:2:0 would blur red edges.
          pipeline.jpeg({ quality, chromaSubsampling: quality >= 90 ? '4:4:4' : '4:2:0' })
    ).toBuffer();
    return { bytes, flattened };
  }

  async thumbnail(image: RgbaPlanes, side: number): Promise<Buffer> {
    return fromPlanes(image).flatten({ background: '#ffffff' }).resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 70 }).toBuffer();
  }
}

/** Interleaved RGB or RGBA bytes to planes: the colour, and the alpha apart unless it is opaque everywhere. */
function splitAlpha(data: Uint8Array, width: number, height: number, channels: number): RgbaPlanes {
  if (channels === 3) return { data, width, height, alpha: null };
  const pixels = width * height;
  const rgb = new Uint8Array(pixels * 3);
  const alpha = new Uint8Array(pixels);
  let opaque = true;
  for (let p = 0, i = 0, o = 0; p < pixels; p++, i += 4, o += 3) {
    rgb[o] = data[i]!;
    rgb[o + 1] = data[i + 1]!;
    rgb[o + 2] = data[i + 2]!;
    const a = data[i + 3]!;
    alpha[p] = a;
    if (a !== 255) opaque = false;
  }
  return { data: rgb, width, height, alpha: opaque ? null : alpha };
}

/** A sharp pipeline over planes (RGBA when there is alpha). */
export function fromPlanes(image: RgbaPlanes): Sharp {
  if (!image.alpha) return fromRgb(image);
  const pixels = image.width * image.height;
  if (image.data.length !== pixels * 3 || image.alpha.length !== pixels) throw new RangeError(`RgbaPlanes of ${image.width}x${image.height} have ${image.data.length} + ${image.alpha.length} bytes`);
  const rgba = new Uint8Array(pixels * 4);
  for (let p = 0, i = 0, o = 0; p < pixels; p++, i += 3, o += 4) {
    rgba[o] = image.data[i]!;
    rgba[o + 1] = image.data[i + 1]!;
    rgba[o + 2] = image.data[i + 2]!;
    rgba[o + 3] = image.alpha[p]!;
  }
  return sharp(rgba, { raw: { width: image.width, height: image.height, channels: 4 } });
}

/** A sharp pipeline over our own pixels (trusted: no loader involved). */
export function fromRgb(image: RgbImage): Sharp {
  if (image.data.length !== image.width * image.height * 3) throw new RangeError(`RgbImage of ${image.width}x${image.height} has ${image.data.length} bytes`);
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } });
}

/** sharp takes a Buffer; a view over the same memory copies nothing. */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
}

function refusal(error: unknown, stage: string): InvalidImageError {
  const message = error instanceof Error ? error.message : String(error);
  if (/pixel limit/i.test(message)) return new InvalidImageError(TOO_MANY_PIXELS, `${stage}: ${message}`);
  if (/unsupported image format/i.test(message)) return new InvalidImageError(NOT_AN_IMAGE, `${stage}: ${message}`);
  return new InvalidImageError(DAMAGED, `${stage}: ${message}`);
}
