import { useEffect, useState } from 'react';
import { useRealtimeEvent } from './socket.ts';

/**
 * Runs `catchUp` each time the socket is (back) up: Socket.IO keeps nothing, so whatever was sent
 * while it was down (or still connecting) has to be fetched. A fetch still under way (`busy`) may
 * have read the data before the socket joined its room, so `catchUp` waits until it is over.
 *
 * Returns `afterLiveChange`, for the hook's live-event handlers to call once they have patched the
 * cache: a fetch under way then may answer with data read before that change and replace the
 * patch (an alert would vanish from the list), so `catchUp` runs again once that fetch is over.
 */
export function useWhenConnected(busy: boolean, catchUp: () => void): () => void {
  const [owed, setOwed] = useState(false);
  useRealtimeEvent('connected', () => {
    if (busy) setOwed(true);
    else catchUp();
  });
  useEffect(() => {
    if (!owed || busy) return;
    setOwed(false);
    catchUp();
  });
  return () => {
    if (busy) setOwed(true);
  };
}
