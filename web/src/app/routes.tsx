import { lazy, Suspense } from 'react';
import { Navigate, Outlet, type RouteObject } from 'react-router';
import { FullPageLoader } from '../components/Loading';
import { RequirePermission } from '../components/NoAccess';
import { SCREENS, type Screen } from './screens';
import { SessionProvider } from './session';

// The shell and its menu load after sign-in, not with the sign-in page.
const ProtectedLayout = lazy(() => import('./ProtectedLayout'));

function Root() {
  return (
    <SessionProvider>
      <Suspense fallback={<FullPageLoader label="Loading…" />}>
        <Outlet />
      </Suspense>
    </SessionProvider>
  );
}

/** A screen's route; one that needs a permission shows NoAccess, and never loads, for a user without it. */
export function screenRoute({ path, permission, component: Component }: Screen): RouteObject {
  const screen = <Component />;
  return {
    path,
    element: permission ? <RequirePermission permission={permission}>{screen}</RequirePermission> : screen,
  };
}

export function routesOf(screens: readonly Screen[]): RouteObject[] {
  return [
    {
      element: <Root />,
      children: [
        ...screens.filter((screen) => screen.access === 'public').map(screenRoute),
        {
          element: <ProtectedLayout />,
          children: [
            { index: true, element: <Navigate to="/sales" replace /> },
            ...screens.filter((screen) => screen.access === 'protected').map(screenRoute),
          ],
        },
      ],
    },
  ];
}

export const routes: RouteObject[] = routesOf(SCREENS);
