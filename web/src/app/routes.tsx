import { lazy, Suspense } from 'react';
import { createBrowserRouter, Navigate, Outlet, type RouteObject } from 'react-router';
import { FullPageLoader } from '../components/Loading';
import { ProtectedLayout } from './ProtectedLayout';
import { SessionProvider } from './session';

const LoginScreen = lazy(() => import('../screens/login/LoginScreen'));
const ForgotScreen = lazy(() => import('../screens/forgot/ForgotScreen'));
const ResetScreen = lazy(() => import('../screens/reset/ResetScreen'));
const SalesScreen = lazy(() => import('../screens/sales/SalesScreen'));
const FinancialScreen = lazy(() => import('../screens/financial/FinancialScreen'));
const SalesCalculatorScreen = lazy(() => import('../screens/salesCalculator/SalesCalculatorScreen'));
const LeaderboardScreen = lazy(() => import('../screens/leaderboard/LeaderboardScreen'));
const IsoPerformanceScreen = lazy(() => import('../screens/isoPerformance/IsoPerformanceScreen'));
const SelfServeScreen = lazy(() => import('../screens/selfServe/SelfServeScreen'));
const ResidualSelfServeScreen = lazy(() => import('../screens/residualSelfServe/ResidualSelfServeScreen'));
const UploadDataScreen = lazy(() => import('../screens/uploadData/UploadDataScreen'));
const ChangePasswordScreen = lazy(() => import('../screens/changePassword/ChangePasswordScreen'));
const RegisterScreen = lazy(() => import('../screens/register/RegisterScreen'));
const UsersScreen = lazy(() => import('../screens/users/UsersScreen'));
const AuditScreen = lazy(() => import('../screens/audit/AuditScreen'));
const OutboxScreen = lazy(() => import('../screens/outbox/OutboxScreen'));
const NotFoundScreen = lazy(() => import('../screens/notFound/NotFoundScreen'));

function Root() {
  return (
    <SessionProvider>
      <Suspense fallback={<FullPageLoader label="Loading…" />}>
        <Outlet />
      </Suspense>
    </SessionProvider>
  );
}

/** Spec document 1 §2 route table (the screens built so far). */
export const routes: RouteObject[] = [
  {
    element: <Root />,
    children: [
      { path: '/login', element: <LoginScreen /> },
      { path: '/forgot', element: <ForgotScreen /> },
      { path: '/reset', element: <ResetScreen /> },
      {
        element: <ProtectedLayout />,
        children: [
          { index: true, element: <Navigate to="/sales" replace /> },
          { path: '/sales', element: <SalesScreen /> },
          { path: '/financial', element: <FinancialScreen /> },
          { path: '/salescalculator', element: <SalesCalculatorScreen /> },
          { path: '/leaderboard', element: <LeaderboardScreen /> },
          { path: '/isoperformance', element: <IsoPerformanceScreen /> },
          { path: '/selfserve', element: <SelfServeScreen /> },
          { path: '/residualselfserve', element: <ResidualSelfServeScreen /> },
          { path: '/uploadfiles', element: <UploadDataScreen /> },
          { path: '/changePassword', element: <ChangePasswordScreen /> },
          { path: '/register', element: <RegisterScreen /> },
          { path: '/users', element: <UsersScreen /> },
          { path: '/audit', element: <AuditScreen /> },
          { path: '/outbox', element: <OutboxScreen /> },
          // Inside the protected layout: a signed-out visitor goes to /login, a signed-in one sees the 404 in the shell.
          { path: '*', element: <NotFoundScreen /> },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes);
