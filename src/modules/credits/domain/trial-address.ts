const GMAIL_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

/**
 * The address a free trial is counted against: lower case, without a `+tag` in the local part, and
 * for Gmail also without dots (googlemail.com is gmail.com), since those all reach one mailbox.
 */
export function trialAddress(email: string): string {
  const lower = email.trim().toLowerCase();
  const at = lower.lastIndexOf('@');
  if (at < 0) return lower;
  let local = lower.slice(0, at).split('+')[0]!;
  let domain = lower.slice(at + 1);
  if (GMAIL_DOMAINS.has(domain)) {
    local = local.replaceAll('.', '');
    domain = 'gmail.com';
  }
  return `${local}@${domain}`;
}
