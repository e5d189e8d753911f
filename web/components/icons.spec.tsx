import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderToStaticMarkup } from 'react-dom/server';
import { Icon, ICON_NAMES, iconClass } from './icons';

const styles = (file: string) => readFileSync(join(__dirname, '../styles', file), 'utf8');
const css = styles('icons.css');
const sprite = styles('icons.svg');
const ROW = 32;

describe('Icon', () => {
  it('has a row in the stylesheet for every name, in the order of ICON_NAMES, and none for a name the component does not know', () => {
    const rows = [...css.matchAll(/^\.(icon-[a-z-]+) \{\n {2}--icon-row: (\d+);\n\}$/gm)].map((m) => [m[1], Number(m[2])]);
    expect(rows).toEqual(ICON_NAMES.map((name, row) => [iconClass(name), row]));
    expect(css.match(/^\./gm)).toHaveLength(ICON_NAMES.length);
  });

  it('draws every row in the image, 32 units apart, and the mask divides by its last row', () => {
    const last = ICON_NAMES.length - 1;
    expect(sprite).toMatch(new RegExp(`^<svg [^>]*viewBox="0 0 24 ${last * ROW + 24}"`));
    const offsets = [...sprite.matchAll(/<path transform="translate\(0,(\d+)\)" d="[^"]+"\/>/g)].map((m) => Number(m[1]));
    expect(offsets).toEqual(ICON_NAMES.map((_, row) => row * ROW));
    expect(sprite.match(/</g)).toHaveLength(ICON_NAMES.length + 2);
    expect(styles('app.css')).toContain(`mask: var(--icons) 0 calc(var(--icon-row) / ${last} * 100%) / 100% auto no-repeat;`);
  });

  it('renders a decorative element with its mask class, and an unknown name as text', () => {
    expect(renderToStaticMarkup(<Icon name="chevronDown" className="size-4" />)).toBe('<span aria-hidden="true" class="icon icon-chevron-down size-4"></span>');
    expect(renderToStaticMarkup(<Icon name="search" />)).toBe('<span aria-hidden="true" class="icon icon-search"></span>');
    expect(renderToStaticMarkup(<Icon name="alert" />)).toBe('<span class="text-xs">alert</span>');
  });
});
