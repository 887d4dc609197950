// Spec §2 sign-in page: welcome heading, 'Sign in' form (Email, Password, 'Log In',
// 'Forgot password?'), the verification-code step, and the single-sign-on button when the
// public features list enables it, with its sub-views (use-sso.ts, sso-views.tsx).
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useQuery } from '@tanstack/react-query';
import * as v from 'valibot';
import { Button, Callout, Flex, Heading, Text, TextField } from '@radix-ui/themes';
import { MSG, messageFromError } from '../../../shared/messages';
import { loginFormSchema, verificationCodeField } from '../../../shared/schemas/auth';
import { requestPasswordToken, resendVerificationCode, signInWithTokens, ssoConfigurationQuery } from '../../api/auth';
import { featuresQuery, isFeatureOn } from '../../api/reference';
import { SSO_ENABLED_KEY } from '../../state/session';
import { toast } from '../../ui/toast';
import { getHref } from '../../paths';
import { AuthLayout, AuthPageLink } from './auth-layout';
import { FormField, PasswordField } from '../../ui/form-field';
import { valibotResolver } from '../../ui/valibot-resolver';
import { classifySignInError, SSO_PROVIDER_NAME } from './sign-in-errors';
import { useCaptcha } from './captcha';
import { useSso } from './use-sso';
import { SsoAccountPicker, SsoConsent, SsoError, SsoLoading } from './sso-views';
import { ActionButton, useFocusSafeDisabled } from '../../ui/action-button';

type Values = { email: string; password: string; verificationCode: string };

const withCodeSchema = v.object({ ...loginFormSchema.entries, verificationCode: verificationCodeField });

export function SignInPage() {
  const [codeShown, setCodeShown] = useState(false);
  const [codeSentTo, setCodeSentTo] = useState('');
  const codeShownRef = useRef(false);
  codeShownRef.current = codeShown;
  const [error, setError] = useState<string | null>(null);
  const [resending, setResending] = useState(false);
  const resendButton = useFocusSafeDisabled<HTMLButtonElement>(resending);

  const captcha = useCaptcha();
  const sso = useSso(captcha.getCaptchaResponse);
  const features = useQuery(featuresQuery());
  const ssoOn = isFeatureOn(features.data, 'SingleSignOn');
  const ssoConfig = useQuery({ ...ssoConfigurationQuery(), enabled: ssoOn || sso.view.kind !== 'none' });
  // The provider's display name: on the button, while signing in, and in the sso_enforced message.
  const providerName = ssoConfig.data?.enabled ? ssoConfig.data.providerName : SSO_PROVIDER_NAME;

  useEffect(() => {
    document.title = `${MSG.signInHeading} - ${MSG.productName}`;
  }, []);
  useEffect(() => {
    if (features.data) localStorage.setItem(SSO_ENABLED_KEY, String(ssoOn));
  }, [features.data, ssoOn]);

  const { register, handleSubmit, getValues, setFocus, formState } = useForm<Values>({
    defaultValues: { email: '', password: '', verificationCode: '' },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    resolver: valibotResolver<Values>(() => (codeShownRef.current ? withCodeSchema : loginFormSchema), {
      prepare: (x) => ({ email: x.email, password: x.password, verificationCode: codeShownRef.current ? x.verificationCode : undefined }),
    }),
  });
  const { errors, isSubmitting } = formState;

  useEffect(() => {
    if (codeShown) setFocus('verificationCode');
  }, [codeShown, setFocus]);

  const onSubmit = async (values: Values) => {
    setError(null);
    const withCode = codeShownRef.current;
    try {
      const tokens = await requestPasswordToken({
        email: values.email,
        password: values.password,
        verificationCode: withCode ? values.verificationCode : undefined,
        captchaResponse: await captcha.getCaptchaResponse(),
      });
      await signInWithTokens(tokens);
    } catch (err) {
      const outcome = classifySignInError(err, withCode, providerName);
      if (outcome.kind === 'code-required') {
        setCodeSentTo(outcome.sentTo);
        setCodeShown(true);
      } else setError(outcome.message);
    }
  };

  const resend = async () => {
    setResending(true);
    try {
      const res = await resendVerificationCode(getValues('email'));
      const m = (res as { Content?: { Message?: unknown } } | null)?.Content?.Message;
      // A new code is on its way: the old code's refusal no longer applies.
      setError((e) => (e === MSG.invalidCode ? null : e));
      if (typeof m === 'string' && m) toast.success(m, { area: 'signin' });
      setFocus('verificationCode');
    } catch (err) {
      toast.error(messageFromError((err as { data?: unknown }).data), { area: 'signin' });
    } finally {
      setResending(false);
    }
  };

  const back = () => void sso.back();
  if (sso.view.kind !== 'none') {
    const view = sso.view;
    return (
      <AuthLayout>
        <Heading as="h1" size="6" mb="4">
          {MSG.welcome(MSG.productName)}
        </Heading>
        {view.kind === 'loading' && <SsoLoading providerName={providerName} />}
        {view.kind === 'consent' && <SsoConsent onBack={back} onAccept={sso.accept} />}
        {view.kind === 'accounts' && <SsoAccountPicker accounts={view.accounts} onChoose={sso.choose} onBack={back} />}
        {view.kind === 'error' && <SsoError message={view.message} onBack={back} />}
      </AuthLayout>
    );
  }

  return (
    <AuthLayout>
      <Heading as="h1" size="6" mb="1">
        {MSG.welcome(MSG.productName)}
      </Heading>
      <Heading as="h2" size="5" mb="4" weight="medium">
        {MSG.signInHeading}
      </Heading>
      <form noValidate onSubmit={handleSubmit(onSubmit)} aria-label={MSG.signInHeading}>
        <Flex direction="column" gap="3">
          {error && (
            <Callout.Root color="red" role="alert">
              <Callout.Text>{error}</Callout.Text>
            </Callout.Root>
          )}
          <FormField label="Email" required error={errors.email?.message}>
            <TextField.Root size="3" type="email" autoComplete="username" autoFocus color={errors.email ? 'red' : undefined} {...register('email')} />
          </FormField>
          <PasswordField size="3" label="Password" autoComplete="current-password" required error={errors.password?.message} {...register('password')} />
          {codeShown && (
            <>
              <FormField label={MSG.verificationCode} required error={errors.verificationCode?.message} hint={codeSentTo || undefined}>
                <TextField.Root
                  size="3"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={6}
                  pattern="[0-9]*"
                  color={errors.verificationCode ? 'red' : undefined}
                  {...register('verificationCode')}
                />
              </FormField>
              <Text size="2">
                <button type="button" className="link-button" {...resendButton.props} onClick={() => !resendButton.inert && void resend()}>
                  {MSG.resendVerificationCode}
                </button>
              </Text>
            </>
          )}
          <ActionButton type="submit" size="3" busy={isSubmitting}>
            {MSG.logIn}
          </ActionButton>
          <AuthPageLink href={getHref('forgotPassword')}>{MSG.forgotPassword}</AuthPageLink>
        </Flex>
      </form>
      {ssoOn && (
        <>
          <div className="or-separator" role="separator" aria-label={MSG.or}>
            <span>{MSG.or}</span>
          </div>
          <Button type="button" size="3" variant="outline" className="full-width" onClick={() => void sso.start()}>
            {ssoConfig.data?.enabled ? `Sign in with ${providerName}` : 'Sign in with Single Sign-on'}
          </Button>
        </>
      )}
    </AuthLayout>
  );
}
