import { spawn } from 'node:child_process';
import sharp from 'sharp';
import { gridRatio, maxChroma, psnrY, resizeBicubic, ssimY, type Rgb } from '../bench/image-quality.mts';

/**
 * npm run bench:quality, the AI upscale's quality gate: its measurements (test/fixtures/pillow
 * holds Pillow's own output), and the whole bench on two small photographs (test/fixtures/quality:
 * crops of scikit-image's astronaut, public domain, and camera, CC0).
 */
async function readPng(path: string): Promise<Rgb> {
  const { data, info } = await sharp(path).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
}

/** Each pixel repeated `scale` x `scale` times: the block grid the old 4x model drew. */
function blocks(image: Rgb, scale: number): Rgb {
  const width = image.width * scale;
  const data = new Uint8Array(width * image.height * scale * 3);
  for (let y = 0; y < image.height * scale; y++)
    for (let x = 0; x < width; x++) data.set(image.data.subarray(((Math.floor(y / scale) * image.width + Math.floor(x / scale)) * 3), (Math.floor(y / scale) * image.width + Math.floor(x / scale)) * 3 + 3), (y * width + x) * 3);
  return { data, width, height: image.height * scale };
}

function benchQuality(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // The table only: the full-size and noise parts cost minutes of CPU (docs/benchmarks.md has their figures).
    const child = spawn('npm', ['run', '--silent', 'bench:quality'], { env: { ...process.env, QUALITY_IMAGES: 'test/fixtures/quality', QUALITY_PARTS: 'table', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('the quality measurements', () => {
  it("resize as Pillow's bicubic does, byte for byte, shrinking (antialiased) and enlarging", async () => {
    const source = await readPng('test/fixtures/pillow/chelsea-48x40.png');
    for (const [width, height] of [[24, 20], [96, 80], [17, 13]] as const) {
      const pillow = await readPng(`test/fixtures/pillow/chelsea-48x40.bicubic-${width}x${height}.png`);
      expect(Buffer.from(resizeBicubic(source, width, height).data).equals(Buffer.from(pillow.data))).toBe(true);
    }
  });

  it('score an image against itself as perfect, and a worse copy lower', async () => {
    const truth = await readPng('test/fixtures/quality/astronaut-face.png');
    const blurred = resizeBicubic(resizeBicubic(truth, 32, 32), 128, 128);
    expect(psnrY(truth, truth, 2)).toBe(Infinity);
    expect(ssimY(truth, truth, 2)).toBeCloseTo(1, 10);
    expect(psnrY(blurred, truth, 4)).toBeLessThan(30);
    expect(ssimY(blurred, truth, 4)).toBeLessThan(0.9);
  });

  it('find a block grid, and colour on grey', async () => {
    const small = await readPng('test/fixtures/quality/astronaut-face.png');
    const smooth = resizeBicubic(small, 512, 512);
    expect(gridRatio(blocks(small, 4), 4) / gridRatio(smooth, 4)).toBeGreaterThan(100);
    const grey = await readPng('test/fixtures/quality/camera-tripod.png');
    expect(maxChroma(grey)).toBe(0);
    expect(maxChroma(small)).toBeGreaterThan(50);
  });
});

describe('npm run bench:quality', () => {
  it('scores every upscaling conversion against bicubic and passes with the floors met', async () => {
    const run = await benchQuality({});
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('bench:quality — 2 images from test/fixtures/quality');
    for (const conversion of ['bicubic 2x', 'ai-2x', 'ai-2x-fast', 'enhance', 'bicubic 4x', 'ai-4x']) expect(run.stdout).toContain(`'${conversion}'`);
    expect(run.stdout).toMatch(/│ 'ai-2x'\s+│ [^│]+│ '\d+\.\d\d'\s+│ '0\.\d{4}'\s+│ '\+\d\.\d\d'\s+│ '2\/2'/);
    expect(run.stdout).toMatch(/CPU for one input at the conversion's bound .*: ai-2x 128x128 \d+\.\d\d s/);
    expect(run.stdout).toContain('bench:quality: every conversion meets its floor, with no block grid and no colour on grey.');
  });

  it('fails, naming the conversion, when one gains less than its floor', async () => {
    // Only the conversion under test (and its baseline): the floors' verdict is the point, not the other scores again.
    const run = await benchQuality({ QUALITY_FLOORS: JSON.stringify({ 'ai-2x-fast': 9 }), QUALITY_CONVERSIONS: 'ai-2x-fast' });
    expect(run.stdout).not.toContain("'ai-4x'");
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^bench:quality FAILED:\n- AI upscale 2x, fast: waifu2x upconv_7 gains \d\.\d\d dB over bicubic, below its floor of 9 dB\n$/);
  });
});
