import { IDLE_DEBOUNCE_MS, IDLE_SIGN_OUT_MS, REVALIDATE_AFTER_MS } from '@paydesk/domain/session';
import { useEffect, useRef } from 'react';

const ACTIVITY_EVENTS = [
  'mousemove',
  'mousedown',
  'keydown',
  'click',
  'scroll',
  'wheel',
  'touchstart',
] as const;

interface IdleHandlers {
  /** No activity for IDLE_SIGN_OUT_MS. */
  onIdle: () => void;
  /** Activity after more than REVALIDATE_AFTER_MS of quiet: resolves true when the session is still valid. */
  revalidate: () => Promise<boolean>;
}

/**
 * Spec document 1 §4 session timers. Only Date.now() and setTimeout are used, so a test clock can
 * drive them. Activity is handled on its leading edge and then ignored for IDLE_DEBOUNCE_MS, so a
 * stream of mousemove events costs one check per interval while a single click is seen at once.
 */
export function useIdleSession(handlers: IdleHandlers): void {
  const latest = useRef(handlers);
  latest.current = handlers;

  useEffect(() => {
    let lastAction = Date.now();
    let lastHandled = Number.NEGATIVE_INFINITY;
    let revalidating = false;
    let timer: ReturnType<typeof setTimeout> | undefined;

    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => latest.current.onIdle(), IDLE_SIGN_OUT_MS);
    };

    const onActivity = () => {
      const now = Date.now();
      if (now - lastHandled < IDLE_DEBOUNCE_MS) return;
      lastHandled = now;
      const quiet = now - lastAction;
      lastAction = now;
      if (quiet >= IDLE_SIGN_OUT_MS) {
        clearTimeout(timer);
        latest.current.onIdle();
        return;
      }
      if (quiet > REVALIDATE_AFTER_MS) {
        if (revalidating) return;
        revalidating = true;
        latest.current.revalidate().then((valid) => {
          revalidating = false;
          if (valid) arm();
        });
        return;
      }
      arm();
    };

    arm();
    for (const name of ACTIVITY_EVENTS) {
      window.addEventListener(name, onActivity, { passive: true, capture: true });
    }
    return () => {
      clearTimeout(timer);
      for (const name of ACTIVITY_EVENTS) {
        window.removeEventListener(name, onActivity, { capture: true });
      }
    };
  }, []);
}
