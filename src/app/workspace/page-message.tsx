import { Button, Callout, Flex, Spinner, Text } from '@radix-ui/themes';
import { useTab } from './tab-context';
import { MSG } from '../../shared/messages';

/** A page that cannot show its record (not found, bad id): the message and a way back. */
export function PageMessage({ message }: { message: string }) {
  const { back } = useTab();
  return (
    <Flex direction="column" gap="3" p="5" align="start">
      <Callout.Root color="red" role="alert">
        <Callout.Text>{message}</Callout.Text>
      </Callout.Root>
      <Button variant="soft" color="gray" onClick={back}>
        {MSG.uiCancel}
      </Button>
    </Flex>
  );
}

/** A page whose record is still loading. */
export function PageLoading() {
  return (
    <Flex p="5" gap="2" align="center" role="status">
      <Spinner /> <Text>Loading…</Text>
    </Flex>
  );
}
