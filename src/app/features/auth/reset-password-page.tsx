// Where the e-mailed reset link leads (/reset-password?token=…, written by the server's
// forgot-password mail; the spec shows only the request side). New password twice, then
// POST /api/v1/reset-password/confirm and back to sign-in.
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { navigate } from 'wouter/use-browser-location';
import { Callout, Flex, Heading } from '@radix-ui/themes';
import { MSG, messageFromError } from '../../../shared/messages';
import { resetPasswordConfirmSchema } from '../../../shared/schemas/auth';
import { confirmPasswordReset } from '../../api/auth';
import { toast } from '../../ui/toast';
import { getHref } from '../../paths';
import { AuthLayout, AuthPageLink } from './auth-layout';
import { PasswordField } from '../../ui/form-field';
import { valibotResolver } from '../../ui/valibot-resolver';
import { ActionButton } from '../../ui/action-button';

/** The path the server's reset e-mail links to (not a workspace route: signed-out only). */
export const RESET_PASSWORD_PATH = '/reset-password';
const TITLE = 'Choose a new password';

type Values = { newPassword: string; newPasswordRepeated: string };

export function ResetPasswordPage() {
  const token = new URLSearchParams(window.location.search).get('token') ?? '';
  useEffect(() => {
    document.title = `${TITLE} - ${MSG.productName}`;
  }, []);
  const { register, handleSubmit, formState } = useForm<Values>({
    defaultValues: { newPassword: '', newPasswordRepeated: '' },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    resolver: valibotResolver<Values>(resetPasswordConfirmSchema, { prepare: (x) => ({ ...x, token: token || 'missing' }) }),
  });

  const onSubmit = async (values: Values) => {
    try {
      await confirmPasswordReset({ token, ...values });
      toast.success(MSG.passwordChanged, { area: 'signin' });
      navigate(getHref('login'), { replace: true });
    } catch (err) {
      toast.error(messageFromError((err as { data?: unknown }).data), { area: 'signin' });
    }
  };

  return (
    <AuthLayout>
      <Heading as="h1" size="6" mb="4">
        {TITLE}
      </Heading>
      {!token ? (
        <Callout.Root color="red" role="alert" mb="4">
          <Callout.Text>{MSG.resetLinkInvalid}</Callout.Text>
        </Callout.Root>
      ) : (
        <form noValidate onSubmit={handleSubmit(onSubmit)} aria-label={TITLE}>
          <Flex direction="column" gap="3">
            <PasswordField
              size="3"
              label="New password"
              autoComplete="new-password"
              required
              autoFocus
              error={formState.errors.newPassword?.message}
              {...register('newPassword')}
            />
            <PasswordField
              size="3"
              label="Repeat new password"
              autoComplete="new-password"
              required
              error={formState.errors.newPasswordRepeated?.message}
              {...register('newPasswordRepeated')}
            />
            <ActionButton type="submit" size="3" busy={formState.isSubmitting}>
              {MSG.submit}
            </ActionButton>
          </Flex>
        </form>
      )}
      <AuthPageLink href={getHref('login')} paragraph>
        {MSG.backToLogin}
      </AuthPageLink>
    </AuthLayout>
  );
}
