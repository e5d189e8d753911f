import { createContext, useContext } from 'react';
import type { RootData } from 'src/contracts/page-data';

/** Config, build id and where the page chunk map is: sent once with the first page, unchanged during the visit. */
export const RootDataContext = createContext<RootData | null>(null);

export function useRootData(): RootData {
  const data = useContext(RootDataContext);
  if (!data) throw new Error('Root data is missing');
  return data;
}

export const useSiteConfig = () => useRootData().config;
