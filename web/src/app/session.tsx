import type { SessionUser } from '@paydesk/domain/contracts/account';
import { accountRefs } from '@paydesk/domain/contracts/accountPaths';
import { useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useNavigate } from 'react-router';
import { ApiError, call, setSessionEndedHandler } from './api';

/** What the login page may show when the app sent the user there (idle sign-out, changed password). */
export interface LoginNotice {
  notice?: string;
}

interface SessionContextValue {
  /** The signed-in user as last confirmed by the server; null when signed out or not yet checked. */
  user: SessionUser | null;
  /** Asks the server whether the session is still valid. Resolves to the user, or null when it is not. */
  validate: () => Promise<SessionUser | null>;
  /** Adopts the user a successful sign-in returned. */
  signedIn: (user: SessionUser) => void;
  /** Signs out on the server, forgets the user and goes to /login. */
  signOut: (notice?: string) => Promise<void>;
  /** Forgets the user and goes to /login without calling the server (it already ended the session). */
  endSession: (notice?: string) => void;
}

const SessionContext = createContext<SessionContextValue | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<SessionUser | null>(null);
  const current = useRef(user);
  current.current = user;
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  const endSession = useCallback(
    (notice?: string) => {
      setUser(null);
      // Nothing one user loaded may show to the next one signing in on this browser.
      queryClient.clear();
      const state: LoginNotice = notice ? { notice } : {};
      navigate('/login', { replace: true, state });
    },
    [navigate, queryClient],
  );

  // The probe answers 200 with or without a session, so a signed-out load logs no failed request.
  const validate = useCallback(async () => {
    try {
      const answer = await call(accountRefs.session);
      const confirmed = answer.signedIn ? answer.user : null;
      setUser(confirmed);
      return confirmed;
    } catch (error) {
      // Too many requests from this address (an office behind one) says nothing about the session: whoever
      // is signed in stays signed in, and the next check asks again.
      if (error instanceof ApiError && error.status === 429) return current.current;
      setUser(null);
      return null;
    }
  }, []);

  const signOut = useCallback(
    async (notice?: string) => {
      try {
        await call(accountRefs.signout);
      } catch {
        // The server clears its cookies when it can; leaving the app must not depend on it.
      }
      endSession(notice);
    },
    [endSession],
  );

  useEffect(
    () => setSessionEndedHandler(() => endSession('Your session has ended. Please sign in again.')),
    [endSession],
  );

  const value = useMemo(
    () => ({ user, validate, signedIn: setUser, signOut, endSession }),
    [user, validate, signOut, endSession],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession must be used inside SessionProvider');
  return value;
}

/** The signed-in user, for screens rendered inside the protected layout (which waits for one). */
export function useSessionUser(): SessionUser {
  const { user } = useSession();
  if (!user) throw new Error('useSessionUser must be used inside the protected layout');
  return user;
}
