import type { FastifyReply } from 'fastify';

/**
 * The page headers a script, a stylesheet or a JSON file of the build has no use for: a browser reads
 * CSP, COOP, Origin-Agent-Cluster, X-Frame-Options and X-DNS-Prefetch-Control from documents (and
 * workers) only, and these files are never shown as one (X-Content-Type-Options: nosniff, kept, makes
 * sure of it). About 800 bytes off every file of the first load: the level page's stylesheet then
 * arrives in the first round trip of a new connection (under the 14.6 KB of TCP's initial window)
 * instead of two (issue 35). The service worker keeps them: it is a worker, and not in /assets.
 */
const DOCUMENT_ONLY_HEADERS = ['content-security-policy', 'cross-origin-opener-policy', 'origin-agent-cluster', 'x-dns-prefetch-control', 'x-frame-options'];

/**
 * Validators a hashed file has no use for: its name changes with its bytes and it is cached as
 * immutable for a year, so a browser never revalidates it. 75 more bytes off each (the stylesheet
 * with its headers is about 150 bytes under TCP's initial window).
 */
const VALIDATORS = ['etag', 'last-modified'];

/** A hashed script, stylesheet or JSON file of the build, as sent (`.br`, `.gz` beside each). */
const SUBRESOURCE = /\/assets\/[^/]+\.(?:js|css|json)(?:\.br|\.gz)?$/;

/** Drops the document-only headers and the validators from a build subresource's response. */
export function trimSubresourceHeaders(reply: FastifyReply, path: string): void {
  if (!SUBRESOURCE.test(path)) return;
  for (const name of DOCUMENT_ONLY_HEADERS) reply.raw.removeHeader(name);
  // Set by @fastify/static on the reply just before it calls setHeaders, where this runs.
  for (const name of VALIDATORS) reply.removeHeader(name);
}
