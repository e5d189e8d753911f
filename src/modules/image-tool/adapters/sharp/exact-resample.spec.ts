import { alignedSource } from 'src/modules/image-tool/domain/resample';
import { resampleAlphaExact, resampleRgbExact } from './exact-resample';

/** A ramp of slope 2 along x (or y), 3 channels. */
function ramp(width: number, height: number, axis: 'x' | 'y'): Uint8Array {
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.fill(20 + 2 * (axis === 'x' ? x : y), (y * width + x) * 3, (y * width + x + 1) * 3);
  return data;
}

describe('resampleRgbExact: no shift', () => {
  it.each([
    [100, 75],
    [100, 50],
    [100, 68],
    [100, 99],
    [100, 61],
    [50, 87],
  ])('a ramp of %i px to %i px, across and down, lands where the aligned map says', async (from, to) => {
    for (const axis of ['x', 'y'] as const) {
      const [w, h] = axis === 'x' ? [from, 8] : [8, from];
      const out = await resampleRgbExact({ data: ramp(w, h, axis), width: w, height: h }, axis === 'x' ? to : 8, axis === 'x' ? 8 : to);
      let total = 0;
      let n = 0;
      for (let X = 8; X < to - 8; X++) {
        const index = axis === 'x' ? (4 * to + X) * 3 : (X * 8 + 4) * 3;
        total += (out.data[index]! - (20 + 2 * alignedSource(X, from, to))) / 2;
        n++;
      }
      // libvips positions its kernels in 1/64 steps: a few hundredths of a pixel, never half a pixel.
      expect(Math.abs(total / n)).toBeLessThan(0.06);
    }
  });

  it('returns the same image at the same size, and 5461x4096 to 4096x3072 quickly', async () => {
    const same = { data: new Uint8Array(12), width: 2, height: 2 };
    expect(await resampleRgbExact(same, 2, 2)).toBe(same);
    const big = { data: new Uint8Array(5461 * 4096 * 3).fill(90), width: 5461, height: 4096 };
    const started = performance.now();
    const out = await resampleRgbExact(big, 4096, 3072);
    expect([out.width, out.height, out.data.length]).toEqual([4096, 3072, 4096 * 3072 * 3]);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('enlarges alpha aligned: a hard edge stays in the middle', () => {
    const alpha = new Uint8Array(8 * 2).map((_, i) => (i % 8 < 4 ? 0 : 255));
    const out = resampleAlphaExact(alpha, { width: 8, height: 2 }, 32, 8);
    // The edge between input columns 3 and 4 is at x = 4, output x = 16: columns 15 and 16 straddle it symmetrically.
    expect(out[15]! + out[16]!).toBeGreaterThan(250);
    expect(out[15]! + out[16]!).toBeLessThan(260);
    expect(out[0]).toBe(0);
    expect(out[31]).toBe(255);
  });
});
