import { createContext } from 'react';

/**
 * The token a subtree's live stream uses when it is not the console session's (the Agent
 * Preview's). Apart from api/live so that naming it does not bring the stream into a first load.
 */
export const LiveTokenContext = createContext<string | null>(null);
