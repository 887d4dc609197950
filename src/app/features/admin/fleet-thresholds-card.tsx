// Provider Settings' Fleet health card: the provider's thresholds for the Fleet Health counts
// (docs/fleet-health.md). Provider admins change them; read-only admins see them.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Card, Heading, Text } from '@radix-ui/themes';
import { FleetThresholdsForm } from '../../ui/fleet-thresholds-form';
import { toast } from '../../ui/toast';
import { errorMessage } from '../../api/query-client';
import { providerThresholdsQuery, saveProviderThresholds } from '../../api/fleet';
import type { FleetThresholds } from '../../../shared/schemas/fleet';

export function FleetThresholdsCard({ editable }: { editable: boolean }) {
  const qc = useQueryClient();
  const q = useQuery(providerThresholdsQuery());
  const save = useMutation({
    mutationFn: (values: FleetThresholds) => saveProviderThresholds(qc, values),
    onSuccess: (res) => toast.success(res.Content.Message),
    onError: (err) => toast.error(errorMessage(err)),
  });
  return (
    <Card size="2">
      <Heading as="h2" size="3" mb="1">
        Fleet health
      </Heading>
      <Text as="p" size="1" color="gray" mb="3">
        When an allocated device counts as silent, not charged, unused or waiting on its configuration. A customer may have its own in its Settings tab.
      </Text>
      {q.data ? (
        <FleetThresholdsForm
          label="Fleet health thresholds"
          values={q.data.Thresholds}
          editable={editable}
          busy={save.isPending}
          onSave={(v) => save.mutate(v as FleetThresholds)}
        />
      ) : (
        <Text size="2">{q.isError ? errorMessage(q.error) : 'Loading…'}</Text>
      )}
    </Card>
  );
}
