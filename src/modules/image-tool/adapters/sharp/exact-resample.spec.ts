import { measureResampleShift, resampleAlphaExact, resampleRgbExact } from './exact-resample';

describe('resampleRgbExact: no shift', () => {
  it.each([
    [100, 75],
    [100, 50],
    [100, 68],
    [100, 99],
    [100, 61],
    [50, 87],
  ])('a ramp of %i px to %i px, across and down, lands where the aligned map says', async (from, to) => {
    // libvips positions its kernels in 1/64 steps: a few hundredths of a pixel, never half a pixel.
    for (const axis of ['x', 'y'] as const) expect(Math.abs(await measureResampleShift(from, to, axis))).toBeLessThan(0.06);
  });

  it('returns the same image at the same size, and 5461x4096 to 4096x3072 (the largest input) at its exact size', async () => {
    const same = { data: new Uint8Array(12), width: 2, height: 2 };
    expect(await resampleRgbExact(same, 2, 2)).toBe(same);
    const big = { data: new Uint8Array(5461 * 4096 * 3).fill(90), width: 5461, height: 4096 };
    const out = await resampleRgbExact(big, 4096, 3072);
    expect([out.width, out.height, out.data.length]).toEqual([4096, 3072, 4096 * 3072 * 3]);
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
