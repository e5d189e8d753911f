/**
 * The account pages' loader: they have no data (null). With accounts off (has_login) the resolver
 * sends every path containing /auth home before any loader runs.
 */
export default function accountPageLoader(): null {
  return null;
}
