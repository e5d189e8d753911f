import { useSyncExternalStore } from 'react';
import { useT } from 'web/i18n/i18n';
import { applyPreference, useForcedColorMode } from 'web/lib/theme';
import { Icon } from './icons';

// The theme lives on <html class="dark">, set before first paint; React only reads it.
const subscribe = (onChange: () => void) => {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
  return () => observer.disconnect();
};
const currentMode = () => (document.documentElement.classList.contains('dark') ? 'dark' : 'light');

/** Switches between light and dark; the choice is remembered in localStorage. Hidden while the page forces a mode. */
export function ThemeToggle() {
  // Unknown on the server: it cannot know the visitor's theme.
  const mode = useSyncExternalStore(subscribe, currentMode, () => undefined);
  const t = useT();

  // A page that forces a colour mode has nothing to switch (following the OS live is the
  // layout's job: useColorMode).
  const forced = useForcedColorMode();
  if (forced) return null;

  const next = mode === 'dark' ? 'light' : 'dark';
  return (
    <button
      type="button"
      onClick={() => applyPreference(next)}
      aria-label={mode ? t('theme.switchTo', { mode: t(next === 'dark' ? 'theme.dark' : 'theme.light') }) : t('theme.switch')}
      className="theme-toggle"
    >
      <Icon name="sun" className="hidden size-5 dark:block" />
      <Icon name="moon" className="size-5 dark:hidden" />
    </button>
  );
}
