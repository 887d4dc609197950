// The person form's login method: Password or Single sign-on, and the person's single-sign-on
// e-mail. Provider admins change it (back to password e-mails a set-password link); read-only
// admins see it. Saved on its own, not with the form's Save.
import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Card, Flex, Heading, RadioGroup, Text, TextField } from '@radix-ui/themes';
import { useCan } from '../../state/session';
import { toast } from '../../ui/toast';
import { errorMessage } from '../../api/query-client';
import { adminKeys, loginMethodQuery, setLoginMethod } from '../../api/admin';
import { P } from '../../../shared/permissions';
import { LOGIN_METHOD, LOGIN_METHOD_LABELS, type LoginMethodDto } from '../../../shared/schemas/admin';
import { ActionButton } from '../../ui/action-button';

export function LoginMethodCard({ personId }: { personId: string }) {
  const can = useCan();
  const current = useQuery({ ...loginMethodQuery(personId), enabled: can(P.SettingsView) });
  if (!can(P.SettingsView) || !current.data) return null;
  return (
    <LoginMethodForm
      key={`${current.data.LoginMethod}:${current.data.SsoEmail ?? ''}`}
      personId={personId}
      current={current.data}
      editable={can(P.SettingsManage)}
    />
  );
}

function LoginMethodForm({ personId, current, editable }: { personId: string; current: LoginMethodDto; editable: boolean }) {
  const qc = useQueryClient();
  const [method, setMethod] = useState(String(current.LoginMethod));
  const [ssoEmail, setSsoEmail] = useState(current.SsoEmail ?? '');
  const save = useMutation({
    mutationFn: () => setLoginMethod(personId, Number(method) as 1 | 2, ssoEmail.trim() || null),
    onSuccess: async (res) => {
      toast.success(res.Content.Message);
      await qc.invalidateQueries({ queryKey: adminKeys.loginMethod(personId) });
      await qc.invalidateQueries({ queryKey: adminKeys.audit() });
    },
    onError: (err) => toast.error(errorMessage(err)),
  });
  const dirty = method !== String(current.LoginMethod) || ssoEmail.trim() !== (current.SsoEmail ?? '');
  return (
    <Card size="2">
      <Heading as="h2" size="3" mb="3">
        Login method
      </Heading>
      <Flex direction="column" gap="3">
        <RadioGroup.Root value={method} onValueChange={setMethod} disabled={!editable} aria-label="Login method">
          {[LOGIN_METHOD.Password, LOGIN_METHOD.SingleSignOn].map((m) => (
            <RadioGroup.Item key={m} value={String(m)}>
              {LOGIN_METHOD_LABELS[m]}
            </RadioGroup.Item>
          ))}
        </RadioGroup.Root>
        <label>
          <Text size="2">Single sign-on e-mail</Text>
          <TextField.Root type="email" maxLength={254} value={ssoEmail} disabled={!editable} onChange={(e) => setSsoEmail(e.target.value)} />
        </label>
        {method === String(LOGIN_METHOD.Password) && current.LoginMethod === LOGIN_METHOD.SingleSignOn && (
          <Text size="1" color="gray">
            Saving sends the person an e-mail to set a password.
          </Text>
        )}
        {editable && (
          <Flex justify="end">
            <ActionButton type="button" disabled={!dirty} busy={save.isPending} onClick={() => save.mutate()}>
              Save login method
            </ActionButton>
          </Flex>
        )}
      </Flex>
    </Card>
  );
}
