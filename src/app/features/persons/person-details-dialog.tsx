// The person read view for list-only roles (spec document 1 §3): a role that may list persons but
// not edit them (ARC manager, read-only admin) gets the read-only 'User Details' dialog instead of
// the edit form: the tab of /persons/edit/{id} shows the dialog while the tab is the focused one,
// and closing the dialog goes back (to the list, or closes the tab). The dialog itself lives in
// src/app/ui/person-details.tsx (the alarm report's 'Full Profile' uses it too).
import { useEffect, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Flex, Heading, Spinner, Text } from '@radix-ui/themes';
import { useTab } from '../../workspace/tab-context';
import { errorMessage } from '../../api/query-client';
import { isValidId } from '../../../shared/codes';
import { MSG } from '../../../shared/messages';
import { personDetailQuery } from './api';
import { DETAILS_TEXT, PersonDetails, PersonDetailsDialog, personTitle, type PersonReadView } from '../../ui/person-details';

export {
  DETAILS_TEXT,
  PersonDetails,
  PersonDetailsDialog,
  formatAddress,
  formatDateOfBirth,
  formatHeight,
  personTitle,
  type PersonReadView,
} from '../../ui/person-details';

/** What the tab of /persons/edit/{id} shows to a role that may list persons but not edit them. */
export function PersonDetailsTab() {
  const tab = useTab();
  const { params, setTitle, active, back } = tab;
  const id = params.userId ?? '';
  const valid = isValidId(id);
  const detail = useQuery({ ...personDetailQuery(id), enabled: valid });
  const person = detail.data?.Person as PersonReadView | undefined;
  const title = person ? personTitle(person) : DETAILS_TEXT.fallbackTitle;

  useEffect(() => {
    setTitle(title);
  }, [title, setTitle]);

  let body: ReactNode;
  if (!valid)
    body = (
      <Text as="p" color="red" role="alert">
        {MSG.userNotFound}
      </Text>
    );
  else if (detail.isPending)
    body = (
      <Flex gap="2" align="center" role="status">
        <Spinner /> <Text>{DETAILS_TEXT.loading}</Text>
      </Flex>
    );
  else if (detail.isError)
    body = (
      <Text as="p" color="red" role="alert">
        {errorMessage(detail.error)}
      </Text>
    );
  else body = <PersonDetails person={person ?? {}} />;

  return (
    <>
      {/* Behind the dialog (and while another tab is focused): what this tab is. */}
      <Flex direction="column" gap="2" p="5" className="ws-panel-message">
        <Heading as="h2" size="5">
          {title}
        </Heading>
      </Flex>
      <PersonDetailsDialog open={active} onClose={back} title={title}>
        {body}
      </PersonDetailsDialog>
    </>
  );
}
