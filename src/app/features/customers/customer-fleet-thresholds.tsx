// A customer's own fleet health thresholds (its Settings tab): each box left empty takes the
// provider's value; clearing all returns the customer to the provider's (docs/fleet-health.md).
// Shown to those who may read Fleet Health; changed with the customer manage permission.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Card, Heading, Text } from '@radix-ui/themes';
import { FleetThresholdsForm } from '../../ui/fleet-thresholds-form';
import { toast } from '../../ui/toast';
import { errorMessage } from '../../api/query-client';
import { customerThresholdsQuery, saveCustomerThresholds } from '../../api/fleet';
import type { FleetOverride } from '../../../shared/schemas/fleet';

export function CustomerFleetThresholds({ customerId, editable }: { customerId: string; editable: boolean }) {
  const qc = useQueryClient();
  const q = useQuery(customerThresholdsQuery(customerId));
  const save = useMutation({
    mutationFn: (values: FleetOverride) => saveCustomerThresholds(qc, customerId, values),
    onSuccess: (res) => toast.success(res.Content.Message),
    onError: (err) => toast.error(errorMessage(err)),
  });
  return (
    <Card size="2" mt="3" style={{ maxWidth: '44rem' }}>
      <Heading as="h2" size="3" mb="1">
        Fleet health
      </Heading>
      <Text as="p" size="1" color="gray" mb="3">
        This customer&apos;s thresholds for Fleet Health.
      </Text>
      {q.data ? (
        <FleetThresholdsForm
          label="Customer fleet health thresholds"
          values={q.data.Override}
          inherited={q.data.Provider}
          editable={editable}
          busy={save.isPending}
          onSave={(v) => save.mutate(v)}
        />
      ) : (
        <Text size="2">{q.isError ? errorMessage(q.error) : 'Loading…'}</Text>
      )}
    </Card>
  );
}
