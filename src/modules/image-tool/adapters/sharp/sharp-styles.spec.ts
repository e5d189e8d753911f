import type { RgbImage } from 'src/modules/image-tool/domain/conversions';
import { SharpStyles } from './sharp-styles';
import { fromRgb } from './sharp-image-codec.adapter';

const styles = new SharpStyles();
const live = () => new AbortController().signal;

/** A light warm background with a dark blue square in the middle: flat areas and hard edges. */
function squareOnBackground(width: number, height: number): RgbImage {
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const inside = x >= width / 4 && x < (3 * width) / 4 && y >= height / 4 && y < (3 * height) / 4;
      data.set(inside ? [20, 40, 160] : [230, 200, 170], (y * width + x) * 3);
    }
  }
  return { data, width, height };
}

/** Smooth colour gradients and some texture: a stand-in for a photo. */
function photoLike(width: number, height: number): RgbImage {
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const ripple = 30 * Math.sin(x / 17) * Math.cos(y / 23);
      data.set([(255 * x) / width, 128 + ripple, (255 * y) / height], (y * width + x) * 3);
    }
  }
  return { data, width, height };
}

const at = (image: RgbImage, x: number, y: number) => Array.from(image.data.subarray((y * image.width + x) * 3, (y * image.width + x) * 3 + 3));
const luma = ([r, g, b]: number[]) => 0.299 * r! + 0.587 * g! + 0.114 * b!;

function distinctColours(image: RgbImage): number {
  const seen = new Set<number>();
  for (let i = 0; i < image.data.length; i += 3) seen.add((image.data[i]! << 16) | (image.data[i + 1]! << 8) | image.data[i + 2]!);
  return seen.size;
}

/** Sum of horizontal differences of the green channel: more means crisper edges. */
function edgeEnergy(image: RgbImage): number {
  let sum = 0;
  for (let y = 0; y < image.height; y++) for (let x = 1; x < image.width; x++) sum += Math.abs(image.data[(y * image.width + x) * 3 + 1]! - image.data[(y * image.width + x - 1) * 3 + 1]!);
  return sum;
}

describe('SharpStyles', () => {
  const input = squareOnBackground(200, 160);

  it('sketch: grey paper, dark pencil along the edges', async () => {
    const out = await styles.apply(input, 'sketch', live());

    expect([out.width, out.height, out.data.length]).toEqual([200, 160, 200 * 160 * 3]);
    expect(out.data.every((v, i) => v === out.data[i - (i % 3)])).toBe(true); // grey: r = g = b
    expect(at(out, 10, 10)).toEqual([255, 255, 255]); // flat background: blank paper
    expect(luma(at(out, 100, 80))).toBeGreaterThan(200); // flat inside the square: paper too
    expect(luma(at(out, 50, 80))).toBeLessThan(150); // on the square's left edge: a stroke
  });

  it('cartoon: a few flat colours and inked outlines', async () => {
    const out = await styles.apply(photoLike(320, 240), 'cartoon', live());

    expect([out.width, out.height]).toEqual([320, 240]);
    expect(distinctColours(out)).toBeLessThanOrEqual(2 * 10); // the palette, and its inked shades

    const square = await styles.apply(input, 'cartoon', live());
    const background = at(square, 10, 10);
    expect(Math.abs(background[0]! - 230) + Math.abs(background[1]! - 200) + Math.abs(background[2]! - 170)).toBeLessThan(30);
    // The square spans x 50..149: a line two pixels wide each side of its left edge.
    expect(luma(at(square, 47, 80))).toBeGreaterThan(180);
    for (const x of [48, 49, 50, 51]) expect(luma(at(square, x, 80))).toBeLessThan(50);
    expect(at(square, 52, 80)).toEqual([20, 40, 160]);
  });

  it('enhance: twice the size, sharper than a plain resize, same colours', async () => {
    const source = photoLike(160, 120);
    const out = await styles.apply(source, 'enhance', live());

    expect([out.width, out.height, out.data.length]).toEqual([320, 240, 320 * 240 * 3]);
    const { data, info } = await fromRgb(source).resize({ width: 320, height: 240, kernel: 'lanczos3' }).raw().toBuffer({ resolveWithObject: true });
    const plain = { data, width: info.width, height: info.height };
    expect(edgeEnergy(out)).toBeGreaterThan(edgeEnergy(plain));
    const mean = (image: RgbImage) => image.data.reduce((sum, v) => sum + v, 0) / image.data.length;
    expect(Math.abs(mean(out) - mean(source))).toBeLessThan(3);
  });

  it('enhance: the picture stays where it was (no half-pixel shift), edges included', async () => {
    // A ramp rising 8 levels a pixel (20..204): output pixel X is input position X / 2 - 0.25 on a
    // centre-aligned grid, so it reads 20 + 4X - 2. sharp's resize gives 20 + 4X - 4, a quarter input
    // pixel to the right: what this test was written against. The unsharp mask leaves a ramp as it is.
    const width = 24;
    const ramp = new Uint8Array(width * 8 * 3);
    for (let y = 0; y < 8; y++) for (let x = 0; x < width; x++) ramp.fill(20 + 8 * x, (y * width + x) * 3, (y * width + x + 1) * 3);
    const out = await styles.apply({ data: ramp, width, height: 8 }, 'enhance', live());
    for (let x = 8; x < 2 * width - 8; x++) expect(Math.abs(at(out, x, 8)[0]! - (20 + 4 * x - 2))).toBeLessThanOrEqual(1);

    // A flat colour stays flat to its last pixel: no dark border from outside the image.
    const flat = { data: new Uint8Array(20 * 10 * 3).fill(200), width: 20, height: 10 };
    const enlarged = await styles.apply(flat, 'enhance', live());
    expect(new Set(enlarged.data)).toEqual(new Set([200]));
  });

  it('stops when the signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('deadline'));
    for (const style of ['sketch', 'cartoon', 'enhance'] as const) {
      await expect(styles.apply(input, style, controller.signal)).rejects.toThrow('deadline');
    }
  });

  it('handles a 1x1 image', async () => {
    const dot = { data: Uint8Array.from([10, 200, 30]), width: 1, height: 1 };
    for (const style of ['sketch', 'cartoon'] as const) expect((await styles.apply(dot, style, live())).data.length).toBe(3);
    expect(await styles.apply(dot, 'enhance', live())).toMatchObject({ width: 2, height: 2 });
  });

});
