/**
 * The photographs npm run bench:quality scores on: the 16 test images that scikit-image ships
 * (the set the AI-upscale issue measured on), taken at bench time from Debian's python3-skimage
 * package with apt-get download (the version and its sha256 pinned), never copied into the
 * repository. Or, with QUALITY_IMAGES=<folder>, every PNG and JPEG in that folder (the test's two).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const DEB = {
  name: 'python3-skimage',
  version: '0.19.3-8',
  sha256: '728d88c3e3440f1f3712de0805dc834d29248ff07e1eec8c0f3da07606f752f9',
  folder: 'usr/lib/python3/dist-packages/skimage/data',
};

/** Each file, and what scikit-image's data module says of its origin and licence. */
export const SKIMAGE_SET: { file: string; licence: string }[] = [
  { file: 'astronaut.png', licence: 'NASA (Eileen Collins), public domain' },
  { file: 'chelsea.png', licence: 'CC0, Stefan van der Walt' },
  { file: 'coffee.png', licence: 'CC0, Rachel Michetti' },
  { file: 'rocket.jpg', licence: 'SpaceX, public domain' },
  { file: 'camera.png', licence: 'CC0, Lav Varshney' },
  { file: 'motorcycle_left.png', licence: 'Middlebury 2014 stereo set, research use' },
  { file: 'retina.jpg', licence: 'CC0, Mikael Häggström' },
  { file: 'brick.png', licence: 'CC0 (CC0Textures)' },
  { file: 'grass.png', licence: 'CC0' },
  { file: 'gravel.png', licence: 'CC0 (CC0Textures)' },
  { file: 'moon.png', licence: 'no licence stated' },
  { file: 'coins.png', licence: 'Brooklyn Museum, no known copyright restrictions' },
  { file: 'page.png', licence: 'no licence stated' },
  { file: 'text.png', licence: 'Wikipedia, public domain' },
  { file: 'hubble_deep_field.jpg', licence: 'NASA, public domain' },
  { file: 'ihc.png', licence: 'CMMI, no known copyright restrictions' },
];

export interface ImageSet {
  says: string;
  files: { path: string; name: string; licence?: string }[];
}

/** The folder's images, or scikit-image's set, fetched once into `cacheDir`. */
export function imageSet(root: string, folder = process.env.QUALITY_IMAGES): ImageSet {
  if (folder) {
    const files = readdirSync(folder)
      .filter((file) => /\.(png|jpe?g)$/i.test(file))
      .sort()
      .map((file) => ({ path: join(folder, file), name: file.replace(/\.[^.]+$/, '') }));
    if (files.length === 0) throw new Error(`QUALITY_IMAGES=${folder}: no PNG or JPEG files there`);
    return { says: `${files.length} images from ${folder}`, files };
  }
  const cacheDir = join(root, 'var/bench-cache', `${DEB.name}_${DEB.version}`);
  const dataDir = join(cacheDir, DEB.folder);
  if (!SKIMAGE_SET.every(({ file }) => existsSync(join(dataDir, file)))) fetchDeb(cacheDir);
  return {
    says: `scikit-image's ${SKIMAGE_SET.length} test images (Debian ${DEB.name} ${DEB.version}, cached in ${cacheDir})`,
    files: SKIMAGE_SET.map(({ file, licence }) => ({ path: join(dataDir, file), name: file.replace(/\.[^.]+$/, ''), licence })),
  };
}

function fetchDeb(cacheDir: string): void {
  const work = `${cacheDir}.download`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  console.log(`Fetching ${DEB.name} ${DEB.version} (21 MB) with apt-get download, once ...`);
  const download = spawnSync('apt-get', ['download', `${DEB.name}=${DEB.version}`], { cwd: work, encoding: 'utf8' });
  const deb = readdirSync(work).find((file) => file.endsWith('.deb'));
  if (download.status !== 0 || !deb) {
    throw new Error(
      `apt-get download ${DEB.name}=${DEB.version} failed (${(download.stderr || download.error?.message || '').trim()}). ` +
        'On a machine without Debian packages, point QUALITY_IMAGES at a folder of photographs.',
    );
  }
  const sha256 = createHash('sha256').update(readFileSync(join(work, deb))).digest('hex');
  if (sha256 !== DEB.sha256) throw new Error(`${deb}: sha256 ${sha256}, pinned ${DEB.sha256}`);
  const extract = spawnSync('dpkg-deb', ['-x', join(work, deb), join(work, 'tree')], { encoding: 'utf8' });
  if (extract.status !== 0) throw new Error(`dpkg-deb -x ${deb} failed: ${extract.stderr}`);
  rmSync(cacheDir, { recursive: true, force: true });
  renameSync(join(work, 'tree'), cacheDir);
  rmSync(work, { recursive: true, force: true });
}
