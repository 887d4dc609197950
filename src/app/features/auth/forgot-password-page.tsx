// Spec §2 forgot-password page: 'Forgot password?', 'Please enter your email', an email field,
// Submit and 'Back to Login'. Sends POST /api/v1/reset-password.
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { navigate } from 'wouter/use-browser-location';
import { Flex, Heading, Text, TextField } from '@radix-ui/themes';
import { MSG, messageFromError } from '../../../shared/messages';
import { resetPasswordSchema } from '../../../shared/schemas/auth';
import { requestPasswordReset } from '../../api/auth';
import { errorStatus } from '../../api/query-client';
import { toast } from '../../ui/toast';
import { getHref } from '../../paths';
import { AuthLayout, AuthPageLink } from './auth-layout';
import { FormField } from '../../ui/form-field';
import { valibotResolver } from '../../ui/valibot-resolver';
import { isCaptchaFailure, useCaptcha } from './captcha';
import { ActionButton } from '../../ui/action-button';

type Values = { email: string };

export function ForgotPasswordPage() {
  useEffect(() => {
    document.title = `${MSG.forgotPassword} - ${MSG.productName}`;
  }, []);
  const captcha = useCaptcha();
  const { register, handleSubmit, formState } = useForm<Values>({
    defaultValues: { email: '' },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    resolver: valibotResolver<Values>(resetPasswordSchema),
  });

  const onSubmit = async ({ email }: Values) => {
    try {
      await requestPasswordReset(email, await captcha.getCaptchaResponse());
      toast.success(MSG.resetLinkSent(email.trim()), { area: 'signin' });
      navigate(getHref('login'));
    } catch (err) {
      // Too many requests: the server says how long to wait; anything else is the spec's message.
      // Spec §7: no captcha → 'Captcha failed, please try again later.'
      const message = isCaptchaFailure(err)
        ? MSG.captchaFailed
        : errorStatus(err) === 429
          ? messageFromError((err as { data?: unknown }).data)
          : MSG.resetLinkFailed;
      toast.error(message, { area: 'signin' });
    }
  };

  return (
    <AuthLayout>
      <Heading as="h1" size="6" mb="2">
        {MSG.forgotPassword}
      </Heading>
      <Text as="p" size="2" mb="4" color="gray">
        {MSG.pleaseEnterYourEmail}
      </Text>
      <form noValidate onSubmit={handleSubmit(onSubmit)} aria-label={MSG.forgotPassword}>
        <Flex direction="column" gap="3">
          <FormField label="Email" required error={formState.errors.email?.message}>
            <TextField.Root size="3" type="email" autoComplete="username" autoFocus color={formState.errors.email ? 'red' : undefined} {...register('email')} />
          </FormField>
          <ActionButton type="submit" size="3" busy={formState.isSubmitting}>
            {MSG.submit}
          </ActionButton>
          <AuthPageLink href={getHref('login')}>{MSG.backToLogin}</AuthPageLink>
        </Flex>
      </form>
    </AuthLayout>
  );
}
