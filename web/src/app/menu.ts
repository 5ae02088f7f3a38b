import { hasPermission, type Permission, type Principal } from '@paydesk/domain/access';
import type { IconProps } from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { MENU_ICONS } from './menuIcons';
import { SCREENS, type Screen } from './screens';

export interface MenuEntry {
  label: string;
  path: string;
  icon: ComponentType<IconProps>;
  /** Absent: every signed-in user sees the entry. */
  permission?: Permission;
}

/** The side menu of the given screens: those with a menu entry, in their menu order. */
export function menuOf(screens: readonly Screen[]): MenuEntry[] {
  return screens
    .flatMap(({ path, permission, menu }) => (menu ? [{ ...menu, path, permission }] : []))
    .sort((a, b) => a.order - b.order)
    .map(({ label, path, icon, permission }) => ({
      label,
      path,
      icon: MENU_ICONS[icon],
      ...(permission && { permission }),
    }));
}

export const MENU: readonly MenuEntry[] = menuOf(SCREENS);

/** The entries this user may open; the server refuses the rest anyway, the menu only hides them. */
export function visibleMenu<E extends Pick<MenuEntry, 'permission'>>(
  user: Principal,
  entries: readonly E[],
): E[] {
  return entries.filter((entry) => entry.permission === undefined || hasPermission(user, entry.permission));
}
