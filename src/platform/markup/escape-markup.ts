const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe inside HTML or XML elements and quoted attributes (feeds, SVG, emails). */
export const escapeMarkup = (s: string) => s.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
