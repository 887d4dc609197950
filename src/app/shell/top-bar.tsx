// Spec §2 top bar: the focused page's title, a Back button (one step back in history) and the
// profile menu: Profile (own-profile permission), Settings (not for single-sign-on users),
// Log out.
import { useState } from 'react';
import { useAtomValue } from 'jotai';
import { useLocation } from 'wouter';
import { Avatar, Button, DropdownMenu, Flex, IconButton, Text } from '@radix-ui/themes';
import { MSG } from '../../shared/messages';
import { P } from '../../shared/permissions';
import { getHref, matchPath, ROUTES } from '../paths';
import { currentUserAtom, isSsoUserAtom, logout, useCan } from '../state/session';
import { focusedTabTitleAtom } from '../workspace/state';
import { openRoute } from '../workspace/actions';
import { LineIcon } from '../ui/line-icon';
import { SettingsDialog } from './settings-dialog';

function usePageTitle() {
  const tabTitle = useAtomValue(focusedTabTitleAtom);
  const [location] = useLocation();
  if (tabTitle) return tabTitle;
  const m = matchPath(location);
  return m ? ROUTES[m.route].title : '';
}

export function TopBar() {
  const title = usePageTitle();
  const user = useAtomValue(currentUserAtom);
  const ssoUser = useAtomValue(isSsoUserAtom);
  const can = useCan();
  const [settingsOpen, setSettingsOpen] = useState(false);
  const name = user ? `${user.firstName} ${user.lastName}`.trim() : '';
  const initials = user ? `${user.firstName?.[0] ?? ''}${user.lastName?.[0] ?? ''}`.toUpperCase() || '?' : '?';

  return (
    <header className="top-bar">
      <IconButton variant="ghost" size="2" aria-label={MSG.back} title={MSG.back} onClick={() => window.history.back()}>
        <LineIcon d="M19 12H5M12 19l-7-7 7-7" />
      </IconButton>
      {/* Not a heading: the page in the focused tab holds the page's one h1 (the same title). */}
      <Text as="div" size="4" weight="medium" className="top-bar-title" truncate>
        {title}
      </Text>
      <Flex ml="auto" align="center" gap="2">
        <DropdownMenu.Root>
          <DropdownMenu.Trigger>
            <Button variant="ghost" size="2" aria-label={`Profile menu${name ? ` (${name})` : ''}`} className="profile-trigger">
              <Avatar size="1" radius="full" fallback={initials} aria-hidden="true" />
              <Text size="2" className="profile-name">
                {name}
              </Text>
              <DropdownMenu.TriggerIcon />
            </Button>
          </DropdownMenu.Trigger>
          <DropdownMenu.Content align="end" sideOffset={6}>
            {user?.email && (
              <>
                <DropdownMenu.Label>{user.email}</DropdownMenu.Label>
                <DropdownMenu.Separator />
              </>
            )}
            {can(P.ManageOwnProfile) && <DropdownMenu.Item onSelect={() => openRoute(getHref('editOwnProfile'))}>{MSG.menuProfile}</DropdownMenu.Item>}
            {!ssoUser && <DropdownMenu.Item onSelect={() => setSettingsOpen(true)}>{MSG.menuSettings}</DropdownMenu.Item>}
            <DropdownMenu.Separator />
            <DropdownMenu.Item onSelect={() => logout('user')}>{MSG.menuLogOut}</DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Root>
      </Flex>
      {settingsOpen && <SettingsDialog open onOpenChange={setSettingsOpen} />}
    </header>
  );
}
