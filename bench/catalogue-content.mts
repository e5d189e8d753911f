/**
 * A generated catalogue for bench:catalogue: level guides and blog posts in the formats of
 * content/levels/*.md and content/blog/**.md, varied (rooms, items, fixtures, step counts, dates,
 * tags) and deterministic for a seed. Some words players often misspell (telescope, chandelier,
 * pharaoh...) recur through titles and steps, so the misspelt queries have something to find.
 * The content pages and media list are copied from the sample content, so the catalogue is a
 * whole site.
 */
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** mulberry32: a small seeded generator, enough for varied content. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T,>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const some = <T,>(list: readonly T[], count: number): T[] => {
    const copy = [...list];
    const out: T[] = [];
    while (out.length < count && copy.length) out.push(copy.splice(Math.floor(next() * copy.length), 1)[0]!);
    return out;
  };
  return { next, int, pick, some };
}

type Random = ReturnType<typeof random>;

const ADJECTIVES = ['Locked', 'Flooded', 'Forgotten', 'Silent', 'Frozen', 'Dusty', 'Haunted', 'Hidden', 'Sunken', 'Crooked', 'Moonlit', 'Rusty', 'Secret', 'Golden', 'Burning', 'Whispering', 'Upside-Down', 'Clockwork', 'Velvet', 'Midnight'];
const ROOMS = ['Observatory', 'Library', 'Greenhouse', 'Lighthouse', 'Cellar', 'Attic', 'Chapel', 'Workshop', 'Kitchen', 'Study', 'Ballroom', 'Boathouse', 'Conservatory', 'Museum Hall', 'Train Carriage', 'Wine Cellar', 'Nursery', 'Laboratory', 'Theatre', 'Tomb', 'Bakery', 'Barber Shop', 'Post Office', 'Clock Tower', 'Planetarium', 'Apothecary', 'Toy Shop', 'Courtroom', 'Pharmacy', 'Map Room'];
/** Things in rooms, typo-prone ones among them. */
const FIXTURES = ['telescope', 'chandelier', 'kaleidoscope', 'gramophone', 'metronome', 'periscope', 'sarcophagus', 'hieroglyphs', 'tapestry', 'cauldron', 'phonograph', 'harpsichord', 'candelabra', 'barometer', 'sundial', 'hourglass', 'mannequin', 'labyrinth', 'silhouette', 'grandfather clock', 'bookshelf', 'fireplace', 'globe', 'piano', 'mirror', 'painting', 'wall safe', 'music box', 'chess board', 'stained glass window', 'rocking horse', 'typewriter', 'fish tank', 'bird cage', 'wardrobe', 'weather vane', 'fuse box', 'dumbwaiter', 'cuckoo clock', 'totem pole'];
const ITEMS = ['brass key', 'oil can', 'screwdriver', 'crowbar', 'candle', 'box of matches', 'lantern', 'magnifying glass', 'rope', 'fuse', 'gear', 'crank handle', 'silver coin', 'torn map', 'battery', 'magnet', 'hammer', 'skeleton key', 'wire cutters', 'ruby', 'feather', 'compass', 'pocket watch', 'flashlight', 'tweezers', 'scissors', 'wrench', 'ladder', 'paintbrush', 'rubber duck', 'teaspoon', 'violin bow', 'bucket', 'fishing hook', 'glue', 'lens', 'music sheet', 'chalk', 'needle', 'pharaoh mask'];
const PLACES = ['under the rug', 'behind the curtain', 'inside the drawer', 'on the top shelf', 'under the bed', 'in the flower pot', 'behind the painting', 'inside the vase', 'under a loose floorboard', 'in the coat pocket', 'on the windowsill', 'in the chimney'];
const VERBS = ['Tap', 'Drag', 'Swipe', 'Rotate', 'Pull', 'Push', 'Turn', 'Open', 'Slide', 'Press'];
const COLOURS = ['red', 'blue', 'green', 'yellow', 'purple', 'orange', 'white', 'black'];
const TIPS = [
  'Zoom into everything: small details hide codes.',
  'Count things you see more than once: numbers are usually a code.',
  'Items can be combined in your inventory before you use them.',
  'Tilt the phone when a puzzle will not budge.',
  'Sounds matter here: turn the volume up.',
  'Anything shiny can usually be picked up.',
  'Colours in the room often repeat in the final lock.',
  'Try every item on anything that looks broken.',
];
const TAGS = ['tips', 'guides', 'site-news', 'updates', 'puzzles', 'walkthroughs', 'beginners', 'hard-levels', 'community', 'search', 'video', 'events', 'codes', 'inventory', 'secrets', 'speedruns'];

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const titleCase = (text: string) => text.split(' ').map(capitalise).join(' ');
const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
/** YAML's double-quoted string: the generated texts hold no quote or backslash, but colons need quoting. */
const quoted = (text: string) => `"${text}"`;
const isoDay = (date: Date) => date.toISOString().slice(0, 10);

function levelTitle(r: Random, n: number): string {
  switch (n % 5) {
    case 0:
      return `The ${r.pick(ADJECTIVES)} ${r.pick(ROOMS)}`;
    case 1:
      return `The ${titleCase(r.pick(FIXTURES))} ${r.pick(ROOMS)}`;
    case 2:
      return `Behind the ${titleCase(r.pick(FIXTURES))}`;
    case 3:
      return `The ${r.pick(ROOMS)} of the ${titleCase(r.pick(ITEMS))}`;
    default:
      return `The ${r.pick(ADJECTIVES)} ${titleCase(r.pick(FIXTURES))}`;
  }
}

function step(r: Random, fixtures: string[], items: string[]): string {
  const fixture = r.pick(fixtures);
  const item = r.pick(items);
  switch (r.int(0, 5)) {
    case 0:
      return `${r.pick(VERBS)} the **${fixture}** to find a **${item}** ${r.pick(PLACES)}.`;
    case 1:
      return `Use the ${item} on the **${fixture}**, then tap it again to see what changed.`;
    case 2:
      return `Look at the ${fixture} closely: the ${r.pick(COLOURS)}, ${r.pick(COLOURS)} and ${r.pick(COLOURS)} marks give the order **${r.int(1, 9)}-${r.int(1, 9)}-${r.int(1, 9)}**.`;
    case 3:
      return `Drag the **${item}** onto the ${fixture} and wait for the click.`;
    case 4:
      return `Turn the dials of the **${fixture}** to **${r.int(100, 999)}** and take the ${item} it releases.`;
    default:
      return `Combine the ${item} with the ${r.pick(items)} in your inventory and use them on the **${fixture}**.`;
  }
}

/** One guide file, as content/levels/NNN.md. */
export function levelFile(seed: number, n: number): string {
  const r = random(seed * 100_003 + n);
  const difficulty = n < 10 ? 'easy' : r.pick(['easy', 'medium', 'medium', 'hard'] as const);
  const seconds = { easy: r.int(45, 150), medium: r.int(120, 300), hard: r.int(240, 720) }[difficulty];
  const fixtures = r.some(FIXTURES, r.int(2, 4));
  const items = r.some(ITEMS, r.int(2, 4));
  const steps = Array.from({ length: r.int(3, 8) }, () => step(r, fixtures, items));
  // Steps spread over the video, which lasts a little longer than the last of them.
  const at = steps.map((_, i) => Math.round(((i + 1) * seconds) / (steps.length + 1)));
  const realVideo = r.next() < 0.3;
  const verified = new Date(Date.UTC(2025, 0, 1) + r.int(0, 600) * 86_400_000);
  const lines = [
    '---',
    `level: ${n}`,
    `title: ${quoted(levelTitle(r, n))}`,
    `difficulty: ${difficulty}`,
    `time: ${quoted(clock(seconds))}`,
    ...(n > 1 && r.next() < 0.5 ? [`unlocks_at: ${n - 1}`] : []),
    `game_version: ${quoted(`2.${r.int(0, 9)}.${r.int(0, 9)}`)}`,
    `verified: ${isoDay(verified)}`,
    'video:',
    `  youtube_id: ${realVideo ? 'GEN' : 'SAM'}${String(n).padStart(8, '0')}`,
    `  title: ${quoted(`Mystery Doors Level ${n} walkthrough`)}`,
    `  duration: ${quoted(clock(seconds + r.int(10, 60)))}`,
    `  sample: ${!realVideo}`,
    'tips:',
    ...r.some(TIPS, r.int(1, 3)).map((tip) => `  - ${quoted(tip)}`),
    'hints:',
    `  - ${quoted(`Look around the ${fixtures[0]}.`)}`,
    `  - ${quoted(`You need the ${items[0]} before anything else.`)}`,
    ...(r.next() < 0.6 ? [`  - ${quoted(`The ${items[0]} is ${r.pick(PLACES)}; use it on the ${fixtures[0]}.`)}`] : []),
    'steps:',
    ...steps.flatMap((text, i) => [`  - text: ${quoted(text)}`, `    at: ${quoted(clock(at[i]!))}`]),
    '---',
    `A ${r.pick(ADJECTIVES).toLowerCase()} ${r.pick(ROOMS).toLowerCase()} with a ${fixtures.join(', a ')}. The way out is through the ${r.pick(['door', 'hatch', 'trapdoor', 'window', 'gate'])}.`,
    '',
  ];
  return lines.join('\n');
}

/** The newest post's day: post i is about 3.5 days older than post i - 1, as a blog that posts twice a week. */
const LATEST_POST = Date.UTC(2026, 10, 28);

/**
 * The i-th newest post: its slug (blog/<slug>.md) and text. A larger blog reaches further back, so
 * it has more months; tags come from a common list, and some posts add the fixture they are about.
 */
export function postFile(seed: number, i: number): { slug: string; text: string } {
  const r = random(seed * 7_919 + i + 1_000_000);
  const date = new Date(LATEST_POST - (i * 3.5 + r.next() * 3) * 86_400_000);
  const fixture = r.pick(FIXTURES);
  const room = r.pick(ROOMS);
  const level = r.int(1, 5000);
  const title = r.pick([
    `How to get past the ${fixture} puzzles`,
    `${r.int(3, 12)} tips for the ${room.toLowerCase()} levels`,
    `What is new in version 2.${r.int(0, 9)}`,
    `Level ${level}: why the ${fixture} trips everyone up`,
    `Where to find the ${r.pick(ITEMS)} in every ${room.toLowerCase()}`,
    `A guide to ${fixture} codes`,
  ]);
  const slug = `${date.getUTCFullYear()}/${title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}-${i + 1}`;
  const paragraph = () =>
    Array.from({ length: r.int(2, 5) }, () =>
      r.pick([
        `The ${r.pick(FIXTURES)} in level ${r.int(1, 5000)} hides a ${r.pick(ITEMS)} ${r.pick(PLACES)}.`,
        `Players often miss the ${r.pick(COLOURS)} mark on the ${r.pick(FIXTURES)}.`,
        `${r.pick(TIPS)}`,
        `If the ${r.pick(ITEMS)} does nothing, try it on the ${r.pick(FIXTURES)} instead.`,
        `The ${room.toLowerCase()} levels reuse the same trick with the ${fixture}.`,
      ]),
    ).join(' ');
  const text = [
    '---',
    `title: ${quoted(capitalise(title))}`,
    `description: ${quoted(`Notes on the ${fixture} and the ${room.toLowerCase()} rooms.`)}`,
    `date: ${date.toISOString().slice(0, 16).replace('T', ' ')}`,
    `tags: [${[...r.some(TAGS, r.int(1, 3)), ...(r.next() < 0.3 ? [fixture.replace(/ /g, '-')] : [])].join(', ')}]`,
    '---',
    ...Array.from({ length: r.int(2, 5) }, paragraph).flatMap((p) => [p, '']),
  ].join('\n');
  return { slug, text };
}

/**
 * Writes a catalogue of `guides` guides (levels 1 to `guides`) and `posts` posts into `dir`, with
 * the sample's content pages and media list.
 */
export function writeCatalogue(dir: string, sample: string, options: { guides: number; posts: number; seed: number }): void {
  mkdirSync(join(dir, 'levels'), { recursive: true });
  const width = Math.max(3, String(options.guides).length);
  for (let n = 1; n <= options.guides; n++) writeFileSync(join(dir, 'levels', `${String(n).padStart(width, '0')}.md`), levelFile(options.seed, n));
  for (let i = 0; i < options.posts; i++) {
    const { slug, text } = postFile(options.seed, i);
    const path = join(dir, 'blog', `${slug}.md`);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, text);
  }
  cpSync(join(sample, 'pages'), join(dir, 'pages'), { recursive: true });
  cpSync(join(sample, 'media.yaml'), join(dir, 'media.yaml'));
}
