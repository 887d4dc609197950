// A record's own History: the latest audit entries for one entity (who, when, what, before →
// after). Read only. The page loads them (useRecordHistory in src/app/api/admin.ts, null for users
// who may not read the audit trail) and hands them in.
import { Card, Flex, Heading, Text } from '@radix-ui/themes';
import { Table } from './table';
import { formatShown } from '../../shared/dates';
import { describeAuditDetails, type AuditEntryDto } from '../../shared/schemas/admin';

const at = (iso: string) => formatShown(iso);

/** The entries to show (`pending` while they load); null: no History panel at all. */
export type HistoryPanelProps = { history: { entries: readonly AuditEntryDto[]; pending: boolean } | null };

export function HistoryPanel({ history }: HistoryPanelProps) {
  if (!history) return null;
  const items = history.entries;
  return (
    <Card size="2">
      <Heading as="h2" size="3" mb="2">
        History
      </Heading>
      {history.pending ? (
        <Text color="gray">Loading…</Text>
      ) : items.length === 0 ? (
        <Text color="gray">No recorded changes.</Text>
      ) : (
        <Table.Root size="1" aria-label="History">
          <Table.Body>
            {items.map((e) => (
              <Table.Row key={e.Id}>
                <Table.Cell style={{ whiteSpace: 'nowrap' }}>{at(e.At)}</Table.Cell>
                <Table.Cell>{e.ActorName ?? 'System'}</Table.Cell>
                <Table.Cell>
                  <Flex direction="column">
                    <Text>{e.Action}</Text>
                    <Text size="1" color="gray">
                      {describeAuditDetails(e.Details)}
                    </Text>
                  </Flex>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      )}
    </Card>
  );
}
