import { useEffect, useState } from 'react';
import { useRealtimeEvent } from './socket.ts';

/**
 * Runs `catchUp` each time the socket is (back) up: Socket.IO keeps nothing, so whatever was sent
 * while it was down (or still connecting) has to be fetched. A fetch still under way (`busy`) may
 * have read the data before the socket joined its room, so `catchUp` waits until it is over.
 */
export function useWhenConnected(busy: boolean, catchUp: () => void): void {
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
}
