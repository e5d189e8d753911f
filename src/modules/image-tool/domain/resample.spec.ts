import { alignedSource, resampleAligned } from './resample';

/** A horizontal ramp of slope 2 (bytes exact; an aligned halving lands between levels, not on a tie), 3 channels. */
export function ramp(width: number, height: number): Uint8Array {
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.fill(20 + 2 * x, (y * width + x) * 3, (y * width + x + 1) * 3);
  return data;
}

/** The mean shift of a resampled ramp from the aligned map, in input pixels, away from the edges. */
export function shift(out: Uint8Array, from: number, to: number, height: number): { mean: number; max: number } {
  let total = 0;
  let max = 0;
  let n = 0;
  const row = Math.floor(height / 2) * to * 3;
  for (let X = 8; X < to - 8; X++) {
    const error = (out[row + X * 3]! - (20 + 2 * alignedSource(X, from, to))) / 2;
    total += error;
    max = Math.max(max, Math.abs(error));
    n++;
  }
  return { mean: total / n, max };
}

describe('resampleAligned', () => {
  it.each([
    [100, 75],
    [100, 50],
    [100, 68],
    [100, 99],
    [50, 100],
    [50, 200],
    [50, 87],
  ])('maps pixel centres to pixel centres: a ramp %i px wide resampled to %i px is the same ramp, no shift', (from, to) => {
    const out = resampleAligned(ramp(from, 6), from, 6, 3, to, 6);
    const { mean, max } = shift(out, from, to, 6);
    // Rounding to bytes and Lanczos' small ripple on a ramp: under a third of a pixel anywhere, no bias on average.
    expect(max).toBeLessThan(0.33);
    expect(Math.abs(mean)).toBeLessThan(0.05);
  });

  it('keeps a flat image flat (weights sum to 1) and the corners in place', () => {
    const flat = new Uint8Array(90 * 70).fill(77);
    expect(resampleAligned(flat, 90, 70, 1, 61, 33).every((v) => v === 77)).toBe(true);
    const corner = new Uint8Array(64 * 64);
    corner[0] = 255;
    const up = resampleAligned(corner, 64, 64, 1, 128, 128);
    // The brightest output pixel is at the top-left, not pushed right or down.
    let best = 0;
    for (let i = 1; i < up.length; i++) if (up[i]! > up[best]!) best = i;
    expect(best).toBe(0);
  });

  it('resamples both axes, 4 channels kept apart, and returns a copy at the same size', () => {
    const data = new Uint8Array(8 * 4 * 4).map((_, i) => (i % 4) * 60);
    const out = resampleAligned(data, 8, 4, 4, 5, 3);
    expect(out.length).toBe(5 * 3 * 4);
    for (let i = 0; i < out.length; i++) expect(out[i]).toBe((i % 4) * 60);
    const same = resampleAligned(data, 8, 4, 4, 8, 4);
    expect(same).toEqual(data);
    expect(same).not.toBe(data);
    expect(() => resampleAligned(data, 9, 4, 4, 5, 3)).toThrow(RangeError);
  });
});
