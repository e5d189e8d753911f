import { useEffect, useState } from 'react';
import { Link, NavLink, useLocation } from 'web/lib/router/router';
import { useT } from 'web/i18n/i18n';
import { menuItems } from 'web/lib/menu';
import { useSiteConfig } from 'web/lib/root-data';
import { useScrolled } from 'web/lib/use-scrolled';
import { AccountMenu } from './account-menu';
import { Icon } from './icons';
import { LanguagePicker } from './language-picker';
import { LevelSearchForm } from './level-search-form';
import { Logo } from './logo';
import { ThemeToggle } from './theme-toggle';

export function Header() {
  const config = useSiteConfig();
  const t = useT();
  const items = menuItems(config, t);
  const scrolled = useScrolled();
  const { pathname } = useLocation();
  // The mobile menu is open for the page it was opened on, so it closes when the route changes.
  const [menuOpenOn, setMenuOpenOn] = useState<string>();
  const menuOpen = menuOpenOn === pathname;
  // A long menu (optional entries on) fits the row only on very wide screens: below, the menu button, so the search keeps its room.
  const wide = items.length > 5;

  // The mobile menu also closes on Escape and when the colour mode changes.
  useEffect(() => {
    if (!menuOpen) return;
    const close = () => setMenuOpenOn(undefined);
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && close();
    const observer = new MutationObserver(close);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
    window.addEventListener('keydown', onKey);
    return () => {
      observer.disconnect();
      window.removeEventListener('keydown', onKey);
    };
  }, [menuOpen]);

  return (
    <header
      data-scrolled={scrolled || undefined}
      className="site-header"
    >
      {/* Tighter on phones: signed in, the balance joins the row, and the search box keeps room for its placeholder. */}
      <div className="header-row">
        <Link to="/" className="flex shrink-0 items-center gap-2.5 font-bold tracking-tight">
          <Logo />
          {/* Only read out on phones and beside the tablet menu, where the menu, search and account corner fill the row. */}
          <span className="header-brand">{config.siteName}</span>
        </Link>
        <nav aria-label={t('header.menu')} className={`hidden shrink-0 ${wide ? '2xl:block' : 'md:block'}`}>
          <ul className="flex items-center gap-1">
            {items.map((item) => (
              <li key={item.to}>
                <NavLink
                  to={item.to}
                  end={item.to === "/"}
                  className="nav-link"
                >
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="header-search">
          <LevelSearchForm />
        </div>
        <LanguagePicker />
        <ThemeToggle />
        <AccountMenu />
        <button
          type="button"
          className={`menu-button ${wide ? '2xl:hidden' : 'md:hidden'}`}
          aria-label={t(menuOpen ? 'header.closeMenu' : 'header.openMenu')}
          aria-expanded={menuOpen}
          aria-controls="mobile-menu"
          onClick={() => setMenuOpenOn(menuOpen ? undefined : pathname)}
        >
          <Icon name={menuOpen ? 'close' : 'menu'} className="size-5" />
        </button>
      </div>
      {menuOpen && (
        <nav id="mobile-menu" aria-label={t('header.mobileMenu')} className={`border-t border-gray-200 px-4 py-3 dark:border-gray-800 ${wide ? '2xl:hidden' : 'md:hidden'}`}>
          <ul className="flex flex-col gap-1">
            {items.map((item) => (
              <li key={item.to}>
                <NavLink
                  to={item.to}
                  end={item.to === "/"}
                  className="block rounded-lg px-3 py-2 font-medium text-gray-700 hover:bg-gray-100 aria-[current=page]:text-primary-700 dark:text-gray-200 dark:hover:bg-gray-800 dark:aria-[current=page]:text-primary-400"
                >
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      )}
    </header>
  );
}
