// Draws the sample guides' step pictures: flat SVG scenes of the fictional rooms, rendered to PNG
// with sharp into content/levels/images/ (committed; the import makes the site's copies from them).
// The objects sit where the guides' tap marks point (x, y in percent of 1200x800).
// Usage: node scripts/draw-guide-scenes.mjs
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const OUT = resolve(fileURLToPath(import.meta.url), '../../content/levels/images');
const W = 1200;
const H = 800;
/** Percent of the picture to pixels: scenes are laid out in the marks' own units. */
const px = (x) => (x * W) / 100;
const py = (y) => (y * H) / 100;

const rect = (x, y, w, h, fill, extra = '') => `<rect x="${px(x)}" y="${py(y)}" width="${px(w)}" height="${py(h)}" fill="${fill}" ${extra}/>`;
const circle = (x, y, r, fill, extra = '') => `<circle cx="${px(x)}" cy="${py(y)}" r="${px(r)}" fill="${fill}" ${extra}/>`;
const text = (x, y, size, fill, value, extra = '') => `<text x="${px(x)}" y="${py(y)}" font-size="${size}" fill="${fill}" font-family="DejaVu Sans, sans-serif" font-weight="700" text-anchor="middle" ${extra}>${value}</text>`;
const room = (wall, floor) => `${rect(0, 0, 100, 72, wall)}${rect(0, 72, 100, 28, floor)}${rect(0, 71, 100, 1.5, '#00000033')}`;
const door = (x, colour = '#7c4a22') => `${rect(x, 22, 16, 50, colour, 'rx="6"')}${rect(x + 1.5, 25, 13, 20, '#00000022', 'rx="4"')}${rect(x + 1.5, 48, 13, 20, '#00000022', 'rx="4"')}`;
const stars = (points, fill = '#fde68a') => points.map(([x, y]) => circle(x, y, 0.8, fill)).join('');

const SCENES = {
  // Level 1: the tutorial room. Rug corner (30, 82), key under it (33, 86), keyhole (62, 50), handle (66, 47).
  '001-room': () =>
    `${room('#f3f4f6', '#d6d3d1')}${door(54, '#8b5a2b')}${circle(62, 50, 1, '#111827')}${circle(66, 47, 1.4, '#d4a017')}
     <g>${[0, 1, 2, 3, 4].map((i) => rect(18, 76 + i * 3.2, 36, 1.6, i % 2 ? '#1d4ed8' : '#dc2626')).join('')}</g>
     ${rect(18, 76, 36, 16, 'none', 'stroke="#7f1d1d" stroke-width="3"')}
     <polygon points="${px(18)},${py(92)} ${px(30)},${py(92)} ${px(18)},${py(80)}" fill="#fef3c7" stroke="#7f1d1d" stroke-width="3"/>
     ${rect(31, 85, 5, 1.6, '#d4a017', 'rx="4"')}${circle(36.5, 85.8, 1.3, '#d4a017')}`,
  // Level 3: the dark bedroom. Flashlight (20, 60), nightlight (26, 58), remote (52, 66), numbers (52, 30), keypad (86, 48).
  '003-bedroom': () =>
    `${room('#1e1b4b', '#111827')}${rect(12, 60, 18, 12, '#3f2a14', 'rx="6"')}${rect(16, 57, 8, 2.6, '#9ca3af', 'rx="6"')}
     ${circle(26, 57, 2.2, '#fde047', 'opacity="0.9"')}${circle(26, 57, 5, '#fde04733')}
     ${rect(36, 55, 40, 17, '#4338ca', 'rx="10"')}${rect(36, 50, 10, 8, '#e0e7ff', 'rx="8"')}${rect(49, 64, 7, 2.4, '#030712', 'rx="4"')}
     ${text(52, 33, 64, '#312e81', '5 8 2')}${door(82, '#312e81')}${rect(78, 44, 3, 8, '#6b7280', 'rx="3"')}${circle(79.5, 50.5, 0.6, '#22c55e')}`,
  // Level 27: the observatory. Globe (16, 40), oil can (13, 45), hinge (47, 52), eyepiece (40, 44), star chart (72, 62), dial lock (88, 44).
  '027-observatory': () =>
    `${room('#1f2937', '#44403c')}<path d="M0 ${py(20)} Q ${px(50)} ${py(-18)} ${px(100)} ${py(20)}" fill="#111827"/>
     ${rect(4, 24, 22, 48, '#5b3a1e')}${[30, 46, 62].map((y) => rect(4, y, 22, 1.6, '#3b2410')).join('')}
     ${[6, 9, 21, 23].map((x) => rect(x, 33, 2, 13, ['#b91c1c', '#1d4ed8', '#15803d', '#a16207'][x % 4])).join('')}
     ${circle(16, 40, 4.5, '#2563eb')}<path d="M${px(12)} ${py(40)} h${px(9)}" stroke="#16a34a" stroke-width="10"/>${rect(11.5, 44, 3, 2.2, '#9ca3af', 'rx="3"')}
     <line x1="${px(47)}" y1="${py(52)}" x2="${px(62)}" y2="${py(22)}" stroke="#b45309" stroke-width="28" stroke-linecap="round"/>
     ${rect(38, 42, 5, 4, '#78350f', 'rx="4"')}${circle(47, 52, 1.8, '#6b7280')}<path d="M${px(44)} ${py(72)} L${px(47)} ${py(54)} L${px(50)} ${py(72)}" stroke="#57534e" stroke-width="8" fill="none"/>
     ${rect(62, 62, 26, 3, '#7c2d12')}${rect(64, 65, 2, 7, '#7c2d12')}${rect(84, 65, 2, 7, '#7c2d12')}${rect(66, 56, 12, 6, '#fef3c7', 'transform="rotate(-4 ${px(72)} ${py(59)})"')}
     ${stars([[68, 58], [70, 59.5], [74, 58], [76, 60]], '#1e3a8a')}${door(82, '#374151')}${circle(88, 44, 2.6, '#d4a017')}${circle(88, 44, 1.2, '#374151')}${rect(93, 42, 1.2, 5, '#9ca3af')}`,
  // Level 27, through the eyepiece: the Kite (22, 40), 4 stars; the Lantern (50, 55), 6; the Crown (78, 35), 2.
  '027-sky': () =>
    `${rect(0, 0, 100, 100, '#020617')}${circle(50, 50, 48, '#0b1739')}
     ${stars([[8, 20], [35, 80], [60, 15], [90, 70], [70, 85], [15, 65], [42, 25], [85, 15]], '#64748b')}
     ${stars([[22, 33], [27, 40], [22, 47], [17, 40]])}${stars([[46, 50], [50, 47], [54, 50], [54, 58], [50, 61], [46, 58]])}${stars([[75, 35], [81, 35]])}`,
  // Level 33: the chapel. Coal scuttle (14, 80), scroll (36, 48), brick (24, 62), candles (66, 52), sheet (66, 30), dial lock (90, 48).
  '033-chapel': () =>
    `${room('#57534e', '#292524')}${rect(46, 6, 6, 20, '#93c5fd', 'rx="20" opacity="0.6"')}
     ${rect(16, 50, 16, 22, '#44403c')}${[54, 60, 66].map((y) => rect(16, y, 16, 0.8, '#7f1d1d')).join('')}${rect(20, 58, 8, 8, '#1c1917', 'rx="4"')}
     ${rect(9, 76, 10, 8, '#1f2937', 'rx="4"')}${circle(12, 75, 1.6, '#0a0a0a')}${circle(15, 75.5, 1.4, '#0a0a0a')}
     ${rect(34, 50, 4, 22, '#78350f')}${rect(31, 46, 10, 4, '#92400e', 'transform="rotate(-8 ${px(36)} ${py(48)})"')}${rect(33, 44, 6, 3, '#fef3c7', 'rx="6"')}
     ${rect(54, 56, 26, 3, '#a8a29e')}${[[58, 4], [63, 6], [68, 8], [73, 10]].map(([x, h]) => rect(x, 56 - h, 2.4, h, '#fafaf9')).join('')}
     ${rect(58, 22, 16, 14, '#78350f')}${rect(59.5, 24, 13, 10, '#f5f5f4')}${door(84, '#44403c')}${circle(90, 48, 2.2, '#d4a017')}`,
  // Level 233: the lantern room. Hammer (8, 36), crate (20, 74), lantern (50, 40), generator (78, 66), switch (94, 40), logbook (36, 66), trapdoor (60, 88).
  '233-lantern-room': () =>
    `${room('#0c4a6e', '#374151')}${rect(0, 10, 100, 4, '#082f49')}
     ${rect(7, 30, 1, 4, '#9ca3af')}${rect(6, 34, 4, 1.6, '#6b7280')}${rect(7.5, 34, 1.2, 10, '#92400e')}
     ${rect(13, 66, 14, 10, '#a16207')}${[68, 72].map((y) => rect(13, y, 14, 0.8, '#713f12')).join('')}
     ${rect(44, 50, 12, 18, '#1f2937')}${circle(50, 38, 9, '#e5e7eb', 'opacity="0.25"')}${rect(45, 26, 10, 24, 'none', 'stroke="#d1d5db" stroke-width="6" rx="12"')}${circle(50, 40, 3, '#4b5563')}
     ${rect(72, 58, 13, 14, '#15803d', 'rx="8"')}${circle(78, 64, 3, '#e5e7eb')}<line x1="${px(78)}" y1="${py(64)}" x2="${px(80)}" y2="${py(61)}" stroke="#dc2626" stroke-width="4"/>
     ${rect(30, 62, 14, 3, '#7c2d12')}${rect(32, 59, 8, 3, '#1e3a8a', 'rx="3"')}${rect(93, 37, 2.4, 6, '#f5f5f4', 'rx="3"')}
     ${rect(52, 84, 16, 8, '#57534e', 'rx="4"')}${circle(60, 88, 1.2, '#d4a017')}
     ${text(10, 22, 40, '#bae6fd', 'W')}${text(36, 22, 40, '#bae6fd', 'S')}${text(64, 22, 40, '#bae6fd', 'E')}${text(90, 22, 40, '#bae6fd', 'N')}`,
};

await mkdir(OUT, { recursive: true });
for (const [name, draw] of Object.entries(SCENES)) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">${draw()}</svg>`;
  const png = await sharp(Buffer.from(svg)).png({ palette: true, compressionLevel: 9, colours: 64 }).toBuffer();
  await writeFile(join(OUT, `${name}.png`), png);
  console.log(`content/levels/images/${name}.png ${(png.length / 1024).toFixed(0)} KiB`);
}
