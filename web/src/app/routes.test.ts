import { isValidElement, type ReactElement } from 'react';
import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { RequirePermission } from '../components/NoAccess';
import { routes } from './routes';
import { SCREENS } from './screens';

function withPaths(tree: readonly RouteObject[]): RouteObject[] {
  return tree.flatMap((route) => [...(route.path ? [route] : []), ...withPaths(route.children ?? [])]);
}

function routeFor(path: string): RouteObject {
  const found = withPaths(routes).filter((route) => route.path === path);
  expect(found, `routes for ${path}`).toHaveLength(1);
  return found[0] as RouteObject;
}

type Props = { permission?: string; children?: unknown };

describe('the router derived from SCREENS', () => {
  it('has a route for every screen and no other', () => {
    expect(withPaths(routes).map((route) => route.path)).toEqual(SCREENS.map((screen) => screen.path));
  });

  it.each(SCREENS.filter((screen) => screen.permission).map((screen) => [screen.path, screen] as const))(
    'guards %s with its permission, so a user without it sees NoAccess and never the screen',
    (_path, screen) => {
      const element = routeFor(screen.path).element as ReactElement<Props>;
      expect(isValidElement(element)).toBe(true);
      expect(element.type).toBe(RequirePermission);
      expect(element.props.permission).toBe(screen.permission);
      const inner = element.props.children as ReactElement;
      expect(inner.type).toBe(screen.component);
    },
  );

  it('renders a screen open to every signed-in user without a guard', () => {
    for (const screen of SCREENS.filter((s) => !s.permission)) {
      expect((routeFor(screen.path).element as ReactElement).type).toBe(screen.component);
    }
  });

  it('guards exactly the admin screens, Business Intelligence and Leads', () => {
    const guarded = SCREENS.filter((screen) => screen.permission).map((screen) => screen.path);
    expect(guarded).toEqual([
      '/bi',
      '/leads',
      '/uploadfiles',
      '/register',
      '/users',
      '/audit',
      '/outbox',
      '/jobs',
    ]);
  });

  it('serves the underwriter’s approval page outside the session check, and Leads inside it', () => {
    const approvalPage = SCREENS.find((screen) => screen.path === '/leads/app');
    expect(approvalPage?.access).toBe('public');
    expect(SCREENS.find((screen) => screen.path === '/leads')?.access).toBe('protected');
  });

  it('puts no permission on a public screen (there is no user to check it against)', () => {
    expect(SCREENS.filter((screen) => screen.access === 'public' && screen.permission)).toEqual([]);
  });
});
