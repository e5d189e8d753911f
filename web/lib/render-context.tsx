import { createContext, useContext } from 'react';

/**
 * The hydration data as the JSON text of its <script type="application/json"> block (see
 * Document): the server's serialisation, and in the browser the very text it read back, so the
 * element hydrates unchanged and never re-renders.
 */
export const HydrationJsonContext = createContext<string>('');
export const useHydrationJson = () => useContext(HydrationJsonContext);
