import { z } from 'zod';

/**
 * Imported (for its effect) ahead of any zod schema in the browser bundle: zod 4 otherwise probes
 * `new Function` when it builds an object schema, which the page's CSP reports as an `eval`
 * violation even though zod catches the error. Jitless parsing is plenty fast for a form.
 */
z.config({ jitless: true });
