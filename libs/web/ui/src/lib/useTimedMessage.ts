import { useEffect, useState } from 'react';
import { MESSAGE_DISPLAY_MS } from '@grove/contracts';

/**
 * A message that clears itself {@link MESSAGE_DISPLAY_MS} after it is shown (docs/product.md#constants: errors and
 * messages stay on screen for 3 seconds). Returns the message (or null) and its setter, like
 * `useState`; setting a new message restarts the timer.
 */
export function useTimedMessage<T = string>(): [T | null, (message: T | null) => void] {
  const [message, setMessage] = useState<T | null>(null);

  useEffect(() => {
    if (!message) return;
    const timer = setTimeout(() => setMessage(null), MESSAGE_DISPLAY_MS);
    return () => clearTimeout(timer);
  }, [message]);

  return [message, setMessage];
}
