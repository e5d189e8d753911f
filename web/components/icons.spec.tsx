import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderToStaticMarkup } from 'react-dom/server';
import { Icon, ICON_NAMES, iconClass } from './icons';

const css = readFileSync(join(__dirname, '../styles/icons.css'), 'utf8');

describe('Icon', () => {
  it('has a mask in the stylesheet for every name, and the stylesheet none for a name the component does not know', () => {
    const drawn = [...css.matchAll(/^\.(icon-[a-z-]+) \{\n {2}--icon: url\("data:image\/svg\+xml,[^"]+"\);\n\}$/gm)].map((m) => m[1]);
    expect(drawn.sort()).toEqual(ICON_NAMES.map(iconClass).sort());
    expect(css.match(/^\./gm)).toHaveLength(ICON_NAMES.length);
  });

  it('renders a decorative element with its mask class, and an unknown name as text', () => {
    expect(renderToStaticMarkup(<Icon name="chevronDown" className="size-4" />)).toBe('<span aria-hidden="true" class="icon icon-chevron-down size-4"></span>');
    expect(renderToStaticMarkup(<Icon name="search" />)).toBe('<span aria-hidden="true" class="icon icon-search"></span>');
    expect(renderToStaticMarkup(<Icon name="alert" />)).toBe('<span class="text-xs">alert</span>');
  });
});
