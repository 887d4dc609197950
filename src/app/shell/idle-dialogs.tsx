// Spec §2: the session-expired dialog after 30 idle minutes (closing it logs out and goes to
// the sign-in page) and the 'Logged out' dialog for tabs signed out by another tab.
import { useAtomValue } from 'jotai';
import { AlertDialog, Button, Flex } from '@radix-ui/themes';
import { MSG } from '../../shared/messages';
import { closeExpiredDialog, closeLoggedOutDialog, idleDialogAtom } from '../state/idle';

export function IdleDialogs() {
  const dialog = useAtomValue(idleDialogAtom);
  return (
    <>
      <AlertDialog.Root open={dialog === 'expired'} onOpenChange={(open) => !open && closeExpiredDialog()}>
        <AlertDialog.Content maxWidth="420px" onEscapeKeyDown={() => closeExpiredDialog()}>
          <AlertDialog.Title>Session expired</AlertDialog.Title>
          <AlertDialog.Description size="2">{MSG.sessionExpired}</AlertDialog.Description>
          <Flex justify="end" mt="4">
            <AlertDialog.Action>
              <Button onClick={() => closeExpiredDialog()}>{MSG.ok}</Button>
            </AlertDialog.Action>
          </Flex>
        </AlertDialog.Content>
      </AlertDialog.Root>
      <AlertDialog.Root open={dialog === 'loggedOut'} onOpenChange={(open) => !open && closeLoggedOutDialog()}>
        <AlertDialog.Content maxWidth="420px">
          <AlertDialog.Title>{MSG.loggedOutTitle}</AlertDialog.Title>
          <AlertDialog.Description size="2">{MSG.loggedOutInactivity}</AlertDialog.Description>
          <Flex justify="end" mt="4">
            <AlertDialog.Action>
              <Button onClick={() => closeLoggedOutDialog()}>{MSG.ok}</Button>
            </AlertDialog.Action>
          </Flex>
        </AlertDialog.Content>
      </AlertDialog.Root>
    </>
  );
}
