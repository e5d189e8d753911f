import { escapeMarkup } from 'src/platform/markup/escape-markup';
import type { MailMessage } from './mail-message';

/** Who a message goes to, and the site it is from. */
export interface MailContext {
  siteName: string;
  to: string;
}

/**
 * Every mail of the site in one layout: paragraphs, an optional button, the site's name; plain text
 * and HTML. `footer`: small print under the signature (an unsubscribe link).
 */
export function layoutMessage(
  ctx: MailContext,
  subject: string,
  paragraphs: string[],
  action?: { label: string; url: string },
  footer?: { text: string; url: string },
): MailMessage {
  const text = [...paragraphs, ...(action ? [`${action.label}: ${action.url}`] : []), `— ${ctx.siteName}`, ...(footer ? [`${footer.text}: ${footer.url}`] : [])].join('\n\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111827">${paragraphs
    .map((p) => `<p>${escapeMarkup(p)}</p>`)
    .join('')}${
    action
      ? `<p><a href="${escapeMarkup(action.url)}" style="display:inline-block;background:#16a34a;color:#fff;padding:10px 18px;border-radius:999px;text-decoration:none;font-weight:600">${escapeMarkup(action.label)}</a></p><p style="font-size:13px;color:#6b7280">${escapeMarkup(action.url)}</p>`
      : ''
  }<p style="color:#6b7280">— ${escapeMarkup(ctx.siteName)}</p>${
    footer ? `<p style="font-size:12px;color:#6b7280"><a href="${escapeMarkup(footer.url)}" style="color:#6b7280">${escapeMarkup(footer.text)}</a></p>` : ''
  }</body></html>`;
  return { to: ctx.to, subject, text, html };
}
