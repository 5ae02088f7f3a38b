import type { Permission } from '@paydesk/domain/access';
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

/**
 * A side-menu icon by name. The icons themselves are in `menuIcons.tsx`, which only the signed-in shell loads, so
 * the sign-in page does not carry them.
 */
export type MenuIcon =
  | 'AddressBook'
  | 'BuildingBank'
  | 'Calculator'
  | 'ChartBar'
  | 'ChartPie'
  | 'ClockPlay'
  | 'CloudUpload'
  | 'Coin'
  | 'FileExport'
  | 'FileSpreadsheet'
  | 'Key'
  | 'ListDetails'
  | 'Mail'
  | 'Map2'
  | 'PresentationAnalytics'
  | 'ReceiptRefund'
  | 'ReportAnalytics'
  | 'ReportMoney'
  | 'ShieldCheck'
  | 'Trophy'
  | 'UserPlus'
  | 'Users'
  | 'UsersGroup';

export interface ScreenMenu {
  label: string;
  icon: MenuIcon;
  /** Position in the side menu, smallest first. */
  order: number;
}

/**
 * One screen of the app. The router, the side menu and the permission guard are all derived from SCREENS, so a
 * screen is added in one place. Each screen is its own chunk, loaded when it is first opened.
 */
export interface Screen {
  path: string;
  /** Public screens (sign-in, password reset) render without a session and without the shell. */
  access: 'public' | 'protected';
  /** Absent: every signed-in user may open it. Present: others see the NoAccess page and never load the screen. */
  permission?: Permission;
  /** Absent: reached by link or address only. */
  menu?: ScreenMenu;
  component: LazyExoticComponent<ComponentType>;
}

/** Spec document 1 §2 route table (the screens built so far). */
export const SCREENS: readonly Screen[] = [
  { path: '/login', access: 'public', component: lazy(() => import('../screens/login/LoginScreen')) },
  { path: '/forgot', access: 'public', component: lazy(() => import('../screens/forgot/ForgotScreen')) },
  { path: '/reset', access: 'public', component: lazy(() => import('../screens/reset/ResetScreen')) },
  {
    // The underwriter's e-mailed link (spec document 3 §2.5): outside the session check; the link's token is
    // the only key, and the server answers nothing beyond what the decision needs.
    path: '/leads/app',
    access: 'public',
    component: lazy(() => import('../screens/leadApproval/LeadApprovalScreen')),
  },
  {
    path: '/sales',
    access: 'protected',
    menu: { label: 'Sales', icon: 'ChartBar', order: 10 },
    component: lazy(() => import('../screens/sales/SalesScreen')),
  },
  {
    path: '/financial',
    access: 'protected',
    menu: { label: 'Financial', icon: 'ChartPie', order: 20 },
    component: lazy(() => import('../screens/financial/FinancialScreen')),
  },
  {
    path: '/salescalculator',
    access: 'protected',
    menu: { label: 'Sales Calculator', icon: 'Calculator', order: 30 },
    component: lazy(() => import('../screens/salesCalculator/SalesCalculatorScreen')),
  },
  {
    path: '/leaderboard',
    access: 'protected',
    menu: { label: 'Leaderboard', icon: 'Trophy', order: 50 },
    component: lazy(() => import('../screens/leaderboard/LeaderboardScreen')),
  },
  {
    path: '/isoperformance',
    access: 'protected',
    menu: { label: 'ISO Performance', icon: 'BuildingBank', order: 40 },
    component: lazy(() => import('../screens/isoPerformance/IsoPerformanceScreen')),
  },
  {
    // Everyone signed in (partner staff see their own ISO only, as on every dashboard).
    path: '/isoanalytics',
    access: 'protected',
    menu: { label: 'ISO Analytics', icon: 'Map2', order: 45 },
    component: lazy(() => import('../screens/isoAnalytics/IsoAnalyticsScreen')),
  },
  {
    path: '/bi',
    access: 'protected',
    permission: 'bi',
    menu: { label: 'Business Intelligence', icon: 'PresentationAnalytics', order: 46 },
    component: lazy(() => import('../screens/bi/BiScreen')),
  },
  {
    path: '/selfserve',
    access: 'protected',
    menu: { label: 'Self Serve', icon: 'FileSpreadsheet', order: 60 },
    component: lazy(() => import('../screens/selfServe/SelfServeScreen')),
  },
  {
    path: '/residualselfserve',
    access: 'protected',
    menu: { label: 'Residual Self Serve', icon: 'ReportMoney', order: 70 },
    component: lazy(() => import('../screens/residualSelfServe/ResidualSelfServeScreen')),
  },
  {
    // Everyone signed in reads ACH returns (partner staff their ISO's only); editing needs ach_edit, which the
    // screen and /api/updateACH check.
    path: '/ach',
    access: 'protected',
    menu: { label: 'ACH Returns', icon: 'ReceiptRefund', order: 72 },
    component: lazy(() => import('../screens/ach/AchScreen')),
  },
  {
    // Everyone signed in reads the PCI merchants, billing and commissions (partner staff their ISO's only, by
    // the server); the restricted tabs, the billing run, fee editing and old-merchant editing need the PCI
    // capabilities, which the screen and the /api/pci calls check.
    path: '/pci',
    access: 'protected',
    menu: { label: 'PCI Compliance', icon: 'ShieldCheck', order: 76 },
    component: lazy(() => import('../screens/pci/PciScreen')),
  },
  {
    // Everyone signed in reads bonuses (partner staff their ISO's only, by the server); marking rows and editing
    // specifications need bonus_edit, which the screen and the /api/bonus calls check.
    path: '/bonus',
    access: 'protected',
    menu: { label: 'Bonus & Clawback', icon: 'Coin', order: 78 },
    component: lazy(() => import('../screens/bonus/BonusScreen')),
  },
  {
    // Spec document 1 §2 shows Leads to a fixed list of staff; here that list is the Leads capability, which
    // every /api/leads call checks too.
    path: '/leads',
    access: 'protected',
    permission: 'leads',
    menu: { label: 'Leads', icon: 'AddressBook', order: 79 },
    component: lazy(() => import('../screens/leads/LeadsScreen')),
  },
  {
    path: '/partner',
    access: 'protected',
    menu: { label: 'Partners', icon: 'UsersGroup', order: 75 },
    component: lazy(() => import('../screens/partners/PartnersScreen')),
  },
  {
    path: '/processing',
    access: 'protected',
    menu: { label: 'Processing', icon: 'ReportAnalytics', order: 25 },
    component: lazy(() => import('../screens/processing/ProcessingScreen')),
  },
  {
    path: '/export',
    access: 'protected',
    menu: { label: 'How to Export', icon: 'FileExport', order: 27 },
    component: lazy(() => import('../screens/export/ExportScreen')),
  },
  {
    path: '/uploadfiles',
    access: 'protected',
    permission: 'upload_data',
    menu: { label: 'Upload Data', icon: 'CloudUpload', order: 80 },
    component: lazy(() => import('../screens/uploadData/UploadDataScreen')),
  },
  {
    path: '/changePassword',
    access: 'protected',
    menu: { label: 'Change Password', icon: 'Key', order: 90 },
    component: lazy(() => import('../screens/changePassword/ChangePasswordScreen')),
  },
  {
    path: '/register',
    access: 'protected',
    permission: 'manage_users',
    menu: { label: 'Register', icon: 'UserPlus', order: 100 },
    component: lazy(() => import('../screens/register/RegisterScreen')),
  },
  {
    path: '/users',
    access: 'protected',
    permission: 'manage_users',
    menu: { label: 'Users', icon: 'Users', order: 110 },
    component: lazy(() => import('../screens/users/UsersScreen')),
  },
  {
    path: '/audit',
    access: 'protected',
    permission: 'manage_users',
    menu: { label: 'Audit log', icon: 'ListDetails', order: 120 },
    component: lazy(() => import('../screens/audit/AuditScreen')),
  },
  {
    path: '/outbox',
    access: 'protected',
    permission: 'read_outbox',
    menu: { label: 'Outbox', icon: 'Mail', order: 130 },
    component: lazy(() => import('../screens/outbox/OutboxScreen')),
  },
  {
    path: '/jobs',
    access: 'protected',
    permission: 'manage_jobs',
    menu: { label: 'Jobs', icon: 'ClockPlay', order: 140 },
    component: lazy(() => import('../screens/jobs/JobsScreen')),
  },
  // Inside the protected layout: a signed-out visitor goes to /login, a signed-in one sees the 404 in the shell.
  { path: '*', access: 'protected', component: lazy(() => import('../screens/notFound/NotFoundScreen')) },
];
