/**
 * What the site adds to bull-board's page (src/modules/ops/adapters/http/bull-board.queue-dashboard.ts):
 * the way back to /admin (outside bull-board's React root, so it stays), styles that
 * give its text the contrast WCAG AA asks for in its light and dark themes, and a small script,
 * served from the site's origin under the site's CSP, that names its icon-only buttons and hides
 * its decorative icons from screen readers as bull-board renders them.
 */

/** Served at /admin/queues/<this>, behind the same admin gate as the dashboard. */
export const A11Y_SCRIPT = 'site-a11y.js';

// A pill in the bottom corner: bull-board's header is fixed at the top and its sidebar on the left.
const BACK_BAR =
  '<nav aria-label="Site" style="position:fixed;right:1rem;bottom:1rem;z-index:1000;display:flex;align-items:center;gap:1rem;padding:0.6rem 1.1rem;border-radius:9999px;background:#14532d;box-shadow:0 4px 14px rgb(0 0 0 / 0.3);font:600 0.9rem system-ui,sans-serif">' +
  '<a href="/admin" style="color:#fff;text-decoration:underline">← Back to admin</a>' +
  '<a href="/" style="color:#fff;text-decoration:underline">Site home</a></nav>';

// bull-board's own variables (light on :root, dark on .dark-mode); its class names carry a build
// hash, so they are matched by their stable prefix.
const THEME = `<style>
:root { --muted-foreground: #4b5563; }
.dark-mode { --muted-foreground: #b6c0cc; }
[class*="searchShortcut-"], [class*="workersBadge-"], [class*="active-"] > [class*="queueName-"] { color: var(--foreground) !important; }
[class*="nullValue-"] { color: var(--muted-foreground) !important; }
</style>`;

export function dressDashboard(html: string): string {
  return html
    .replace('</head>', `${THEME}<script defer src="${A11Y_SCRIPT}"></script></head>`)
    .replace(/<body([^>]*)>/, (body) => `${body}${BACK_BAR}`);
}

/**
 * Names for bull-board's icon-only buttons, from the icon they show (lucide's class names, and the
 * Redis logo), and visible text made part of a label that leaves it out (WCAG 2.5.3).
 */
export const DASHBOARD_A11Y_SCRIPT = `(() => {
  'use strict';
  const NAMES = { settings: 'Settings', 'ellipsis-vertical': 'More actions', ellipsis: 'More actions', maximize: 'Full screen', 'maximize-2': 'Full screen', minimize: 'Leave full screen', 'minimize-2': 'Leave full screen', languages: 'Language', sun: 'Colour theme', moon: 'Colour theme', 'refresh-cw': 'Refresh', search: 'Search' };
  const iconName = (button) => {
    if (button.querySelector('.rds-b1')) return 'Redis details';
    const icon = button.querySelector('svg[class*="lucide-"]');
    const match = icon && /lucide-([a-z0-9-]+)/.exec([...icon.classList].filter((c) => c !== 'lucide').join(' '));
    if (!match) return button.closest('[class*="headerContext-"]') ? 'Queue actions' : 'Menu';
    return NAMES[match[1]] || match[1].replace(/-/g, ' ').replace(/^./, (c) => c.toUpperCase());
  };
  const fix = () => {
    for (const button of document.querySelectorAll('button, [role="button"]')) {
      // innerText, not textContent: the Redis logo carries a <style> whose rules are no visible text.
      const text = (button.innerText || '').trim();
      const label = button.getAttribute('aria-label');
      if (!text && !label && !button.getAttribute('aria-labelledby')) button.setAttribute('aria-label', button.getAttribute('title') || iconName(button));
      else if (text && label && !label.toLowerCase().includes(text.toLowerCase())) button.setAttribute('aria-label', text + ': ' + label);
    }
    // Icons inside named buttons and links are decoration.
    for (const svg of document.querySelectorAll('button svg:not([aria-hidden]), a svg:not([aria-hidden])')) svg.setAttribute('aria-hidden', 'true');
  };
  new MutationObserver(fix).observe(document.documentElement, { childList: true, subtree: true, characterData: true });
  fix();
})();
`;
