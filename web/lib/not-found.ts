import { PageError } from './router/page';

/** Throws from a loader: the page renders the 404 page with this message and a real 404 status. */
export function notFound(message: string): never {
  throw new PageError(404, message);
}

/** The spec's two 404 messages: unknown routes, and a known route whose parameters fail validation. */
export const unknownRoute = (path: string) => notFound(`Page not found: ${path}`);
export const invalidPage = (fullPath: string) => notFound(`Page Not Found: ${fullPath}`);
