import { Notifications } from '@mantine/notifications';
import { Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { FullPageLoader, ScreenLoader } from '../components/Loading';
import { useIdleSession } from './idle';
import { Shell } from './Shell';
import { useSession } from './session';

const IDLE_NOTICE = 'You were signed out after 40 minutes without activity.';

/** Every protected route: the session check on each load, the idle timers, and the shell. */
export default function ProtectedLayout() {
  const { user, validate, endSession, signOut } = useSession();
  const { pathname } = useLocation();

  // Spec document 1 §4: every protected route load validates the session.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a pathname change is a route load, which must re-validate.
  useEffect(() => {
    let current = true;
    validate().then((valid) => {
      if (current && !valid) endSession();
    });
    return () => {
      current = false;
    };
  }, [pathname, validate, endSession]);

  useIdleSession({
    onIdle: () => void signOut(IDLE_NOTICE),
    revalidate: async () => {
      const valid = await validate();
      if (!valid) endSession('Your session has ended. Please sign in again.');
      return valid !== null;
    },
  });

  if (!user) return <FullPageLoader />;
  return (
    <Shell>
      {/* Only signed-in screens raise toasts; mounted here, the sign-in page does not load them. */}
      <Notifications position="bottom-right" />
      <Suspense fallback={<ScreenLoader />}>
        <Outlet />
      </Suspense>
    </Shell>
  );
}
