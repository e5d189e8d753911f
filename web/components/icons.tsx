/**
 * Icons from the Lucide set (ISC), drawn by the stylesheet (web/styles/icons.css): an empty element
 * whose `icon-<name>` class picks the icon's row of one image of them all, shown as a mask, so a
 * page carries a class name per icon instead of its SVG path. An unknown name renders the name as
 * text, as the spec asks of an icon that cannot be shown.
 */
/** In the order of the image's rows (web/styles/icons.svg): a new icon goes at the end. */
export const ICON_NAMES = [
  'search',
  'sun',
  'moon',
  'menu',
  'close',
  'home',
  'star',
  'download',
  'shield',
  'lightbulb',
  'play',
  'list',
  'arrowLeft',
  'clock',
  'lock',
  'check',
  'chevronLeft',
  'chevronRight',
  'chevronDown',
  'eye',
  'thumbUp',
  'thumbDown',
  'bell',
  'smartphone',
  'user',
  'coins',
  'key',
] as const;

export type IconName = (typeof ICON_NAMES)[number];

const KNOWN = new Set<string>(ICON_NAMES);

/** The icon's class in web/styles/icons.css: `chevronDown` is `icon-chevron-down`. */
export const iconClass = (name: IconName) => `icon-${name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;

/** Decorative (aria-hidden): the control or text beside it says what it means. Sized by font size (1em) or a `size-*` class. */
export function Icon({ name, className }: { name: IconName | (string & {}); className?: string }) {
  if (!KNOWN.has(name)) return <span className="text-xs">{name}</span>;
  const icon = `icon ${iconClass(name as IconName)}`;
  return <span aria-hidden="true" className={className ? `${icon} ${className}` : icon} />;
}
