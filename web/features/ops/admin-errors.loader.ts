import { isErrorScope } from 'src/contracts/ops';
import type { LoaderArgs } from 'web/lib/router/page';

export default async function adminErrorsLoader({ url, data }: LoaderArgs) {
  const asked = url.searchParams.get('scope') ?? 'all';
  const scope = isErrorScope(asked) ? asked : 'all';
  return { scope, groups: await data.ops.errors(scope) };
}
