/**
 * Route patterns: '/levels/:id' (one segment), '/blog/*slug' (the rest of the path, one or more
 * segments), '*' (anything). Compiled once; matching is a RegExp test.
 */
export type Params = Record<string, string>;

export interface CompiledPattern {
  pattern: string;
  match(pathname: string): Params | null;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function compilePattern(pattern: string): CompiledPattern {
  if (pattern === '*') return { pattern, match: () => ({}) };
  const names: string[] = [];
  const source = pattern
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      if (segment.startsWith(':')) {
        names.push(segment.slice(1));
        return '/([^/]+)';
      }
      if (segment.startsWith('*')) {
        names.push(segment.slice(1) || 'rest');
        return '/(.+)';
      }
      return `/${escape(segment)}`;
    })
    .join('');
  const regexp = new RegExp(`^${source || '/'}/?$`);
  return {
    pattern,
    match(pathname) {
      const found = regexp.exec(pathname);
      if (!found) return null;
      const params: Params = {};
      names.forEach((name, i) => {
        const raw = found[i + 1]!;
        try {
          params[name] = decodeURIComponent(raw);
        } catch {
          params[name] = raw;
        }
      });
      return params;
    },
  };
}
