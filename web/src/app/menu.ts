import { hasPermission, type Permission, type Principal } from '@paydesk/domain';
import {
  IconBuildingBank,
  IconCalculator,
  IconChartBar,
  IconChartPie,
  IconCloudUpload,
  IconFileSpreadsheet,
  IconKey,
  IconListDetails,
  IconMail,
  type IconProps,
  IconReportMoney,
  IconTrophy,
  IconUserPlus,
  IconUsers,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';

export interface MenuEntry {
  label: string;
  path: string;
  icon: ComponentType<IconProps>;
  /** Absent: every signed-in user sees the entry. */
  permission?: Permission;
}

/** The side menu, in display order. An entry is added here when its screen exists. */
export const MENU: readonly MenuEntry[] = [
  { label: 'Sales', path: '/sales', icon: IconChartBar },
  { label: 'Financial', path: '/financial', icon: IconChartPie },
  { label: 'Sales Calculator', path: '/salescalculator', icon: IconCalculator },
  { label: 'ISO Performance', path: '/isoperformance', icon: IconBuildingBank },
  { label: 'Leaderboard', path: '/leaderboard', icon: IconTrophy },
  { label: 'Self Serve', path: '/selfserve', icon: IconFileSpreadsheet },
  { label: 'Residual Self Serve', path: '/residualselfserve', icon: IconReportMoney },
  { label: 'Upload Data', path: '/uploadfiles', icon: IconCloudUpload, permission: 'upload_data' },
  { label: 'Change Password', path: '/changePassword', icon: IconKey },
  { label: 'Register', path: '/register', icon: IconUserPlus, permission: 'manage_users' },
  { label: 'Users', path: '/users', icon: IconUsers, permission: 'manage_users' },
  { label: 'Audit log', path: '/audit', icon: IconListDetails, permission: 'manage_users' },
  { label: 'Outbox', path: '/outbox', icon: IconMail, permission: 'read_outbox' },
];

/** The entries this user may open; the server refuses the rest anyway, the menu only hides them. */
export function visibleMenu<E extends Pick<MenuEntry, 'permission'>>(
  user: Principal,
  entries: readonly E[],
): E[] {
  return entries.filter((entry) => entry.permission === undefined || hasPermission(user, entry.permission));
}
