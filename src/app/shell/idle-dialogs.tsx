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
      <Notice open={dialog === 'expired'} close={closeExpiredDialog} title="Session expired" message={MSG.sessionExpired} closeOnEscape />
      <Notice open={dialog === 'loggedOut'} close={closeLoggedOutDialog} title={MSG.loggedOutTitle} message={MSG.loggedOutInactivity} />
    </>
  );
}

/** A notice with OK: closing it in any way runs `close`. */
function Notice(props: { open: boolean; close: () => void; title: string; message: string; closeOnEscape?: boolean }) {
  const { open, close, title, message, closeOnEscape = false } = props;
  return (
    <AlertDialog.Root open={open} onOpenChange={(o) => !o && close()}>
      <AlertDialog.Content maxWidth="420px" onEscapeKeyDown={closeOnEscape ? () => close() : undefined}>
        <AlertDialog.Title>{title}</AlertDialog.Title>
        <AlertDialog.Description size="2">{message}</AlertDialog.Description>
        <Flex justify="end" mt="4">
          <AlertDialog.Action>
            <Button onClick={() => close()}>{MSG.ok}</Button>
          </AlertDialog.Action>
        </Flex>
      </AlertDialog.Content>
    </AlertDialog.Root>
  );
}
