/** Longest title search engines show in full; the site name is dropped rather than cut. */
export const TITLE_MAX = 60;

/** '{page title} - {site name}', or the page title alone when that would exceed 60 characters. */
export function formatTitle(title: string | undefined, siteName: string): string {
  if (!title) return siteName;
  const full = `${title} - ${siteName}`;
  return full.length > TITLE_MAX ? title : full;
}
