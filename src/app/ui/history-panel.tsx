// A record's own History: the latest audit entries for one entity (who, when, what, before →
// after), for users who may read the audit trail. Read only.
import { useQuery } from '@tanstack/react-query';
import { Card, Flex, Heading, Text } from '@radix-ui/themes';
import { Table } from './table';
import { useCan } from '../state/session';
import { auditListQuery } from '../api/admin';
import { formatShown } from '../../shared/dates';
import { P } from '../../shared/permissions';
import { describeAuditDetails } from '../../shared/schemas/admin';

const at = (iso: string) => formatShown(iso);

export function HistoryPanel({ entity, entityId }: { entity: string; entityId: string }) {
  const can = useCan();
  const list = useQuery({ ...auditListQuery({ entity, entityId, pageNumber: 1, pageSize: 25 }), enabled: can(P.AuditView) && !!entityId });
  if (!can(P.AuditView)) return null;
  const items = list.data?.Items ?? [];
  return (
    <Card size="2">
      <Heading as="h2" size="3" mb="2">
        History
      </Heading>
      {list.isPending ? (
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
