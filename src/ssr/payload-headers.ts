import type { FastifyReply } from 'fastify';

/**
 * A payload is data for the page's script, never shown as a document, so it carries the security
 * headers that matter for JSON instead of a page's dozen: no sniffing it as HTML, no loading by other
 * sites, and a policy that allows nothing should it be opened as a document. A payload is small, so
 * the page's 1 KB of headers would more than double what each client navigation receives. The
 * Referrer-Policy is the page's (helmet's default): a payload opened as a document leaks no URL either.
 */
export const PAYLOAD_SECURITY_HEADERS = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};
/** The security headers every response gets (helmet's, see http-platform.ts): replaced on payloads. */
const PAGE_SECURITY_HEADERS = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'strict-transport-security',
  'x-content-type-options',
  'x-dns-prefetch-control',
  'x-frame-options',
];

/** A payload's security headers in place of the page's ones set on the way in. */
export function payloadHeaders(reply: FastifyReply): void {
  for (const name of PAGE_SECURITY_HEADERS) reply.raw.removeHeader(name);
  void reply.headers(PAYLOAD_SECURITY_HEADERS);
}
