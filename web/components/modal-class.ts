/**
 * The look of the site's modal <dialog>s (low credit, sign in, refund); each adds its width. The
 * border is what shows the modal's edge on a dark page, where the shadow and the backdrop do not.
 */
export const modalClass =
  'm-auto rounded-3xl border border-gray-200 bg-white p-6 text-gray-900 shadow-xl backdrop:bg-gray-950/60 dark:border-gray-600 dark:bg-gray-900 dark:text-gray-100 dark:shadow-black/60';
