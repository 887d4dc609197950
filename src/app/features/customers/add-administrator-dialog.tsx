// Add administrator (spec document 2 §2, §5, §8): First Name, Last Name, Email (required, a
// standard address pattern else 'Please enter a valid email'), Cancel and Add. The person gets the
// dictionaries' admin and portal user roles in the customer's tenant; without the dictionaries:
// "Can't add administrator, please try again later."
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Callout, Flex, TextField } from '@radix-ui/themes';
import { Dialog } from '../../ui/dialog';
import { FormField } from '../../ui/form-field';
import { toast } from '../../ui/toast';
import { DialogCloseButton } from '../../shell/dialog-close-button';
import { dictionariesQuery } from '../../api/reference';
import { addCustomerAdministrator, customerKeys } from '../../api/customers';
import { errorMessage } from '../../api/query-client';
import { MSG } from '../../../shared/messages';
import { ROLE } from '../../../shared/permissions';
import { adminFormErrors, type AdminFormValues } from './customer-form-schema';
import { ActionButton } from '../../ui/action-button';

export function AddAdministratorDialog({ tenantId, onClose }: { tenantId: string; onClose: () => void }) {
  const qc = useQueryClient();
  const dict = useQuery(dictionariesQuery()).data;
  const [values, setValues] = useState<AdminFormValues>({ firstName: '', lastName: '', email: '' });
  const [errors, setErrors] = useState<Partial<Record<keyof AdminFormValues, string>>>({});
  const [serverError, setServerError] = useState<string | null>(null);

  const add = useMutation({
    mutationFn: async (v: AdminFormValues) => {
      const admin = dict?.Roles?.[ROLE.Admin]?.Id;
      const portal = dict?.Roles?.[ROLE.PortalUser]?.Id;
      if (!admin || !portal) throw new Error(MSG.adminAddNoDictionaries);
      return addCustomerAdministrator(tenantId, {
        firstName: v.firstName.trim(),
        lastName: v.lastName.trim(),
        emailAddress: v.email.trim(),
        roleIds: [admin, portal],
      });
    },
    onSuccess: async () => {
      toast.success(MSG.administratorAdded);
      await qc.invalidateQueries({ queryKey: ['customers', 'admins', tenantId] });
      await qc.invalidateQueries({ queryKey: customerKeys.all });
      onClose();
    },
    onError: (err) => setServerError(err instanceof Error && err.message === MSG.adminAddNoDictionaries ? err.message : errorMessage(err)),
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found = adminFormErrors(values);
    setErrors(found);
    setServerError(null);
    if (Object.keys(found).length === 0) add.mutate(values);
  };
  const field = (key: keyof AdminFormValues) => ({
    value: values[key],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => setValues((s) => ({ ...s, [key]: e.target.value })),
  });

  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Content maxWidth="28rem" aria-describedby={undefined}>
        <DialogCloseButton />
        <Dialog.Title>Add administrator</Dialog.Title>
        <form onSubmit={submit} noValidate>
          <Flex direction="column" gap="3">
            {serverError && (
              <Callout.Root color="red" role="alert">
                <Callout.Text>{serverError}</Callout.Text>
              </Callout.Root>
            )}
            <FormField label="First Name" required error={errors.firstName}>
              <TextField.Root autoFocus maxLength={100} autoComplete="off" {...field('firstName')} />
            </FormField>
            <FormField label="Last Name" required error={errors.lastName}>
              <TextField.Root maxLength={100} autoComplete="off" {...field('lastName')} />
            </FormField>
            <FormField label="Email" required error={errors.email}>
              <TextField.Root type="email" maxLength={254} autoComplete="off" {...field('email')} />
            </FormField>
            <Flex gap="3" justify="end">
              <Dialog.Close>
                <Button type="button" variant="soft" color="gray">
                  {MSG.uiCancel}
                </Button>
              </Dialog.Close>
              <ActionButton type="submit" busy={add.isPending}>
                Add
              </ActionButton>
            </Flex>
          </Flex>
        </form>
      </Dialog.Content>
    </Dialog.Root>
  );
}
