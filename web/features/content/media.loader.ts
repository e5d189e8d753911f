import type { LoaderArgs } from 'web/lib/router/page';

export default function mediaLoader({ data }: LoaderArgs) {
  return data.content.media();
}
