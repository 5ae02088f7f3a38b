import { Anchor, Button, Stack, Text } from '@mantine/core';
import { accountEndpoints, PASSWORD_HINT, PASSWORD_MIN_LENGTH, resetPasswordBody } from '@paydesk/domain';
import { IconArrowLeft, IconLockCheck } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { call, errorMessage, isRateLimited } from '../../app/api';
import { FormAlert } from '../../components/FormAlert';
import { useZodForm } from '../../components/forms/useZodForm';
import { FullPageLoader } from '../../components/Loading';
import { PasswordField } from '../../components/PasswordField';
import { PublicLayout } from '../../components/PublicLayout';

const FAILURE = 'Something went wrong! please try again';
const TOO_SHORT = 'Password length must be 8 characters or more';
const INVALID_LINK =
  'This password reset link is not valid or has expired. Ask for a new one from “Forgot password?”.';
const REDIRECT_MS = 4_000;

export default function ResetScreen() {
  const navigate = useNavigate();
  const code = useSearchParams()[0].get('code') ?? '';
  const [checked, setChecked] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  // The check was refused for coming too often (429): the link may well be good, so it is not called invalid.
  const [checkRefused, setCheckRefused] = useState<string | null>(null);
  const [checks, setChecks] = useState(0);

  // Spec document 1 §2: the code is checked on load; a failed check goes to /login.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new `checks` count is the user asking to check again.
  useEffect(() => {
    let current = true;
    const leave = () => {
      if (current) navigate('/login', { replace: true, state: { notice: INVALID_LINK } });
    };
    if (code === '') {
      leave();
    } else {
      setCheckRefused(null);
      call(accountEndpoints.checkResetPassword, { code }).then(
        (answer) => (answer.success ? current && setChecked(true) : leave()),
        (failure) => {
          if (!isRateLimited(failure)) leave();
          else if (current) setCheckRefused(failure.message);
        },
      );
    }
    return () => {
      current = false;
    };
  }, [code, navigate, checks]);

  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(
      () => navigate('/login', { replace: true, state: { notice: done } }),
      REDIRECT_MS,
    );
    return () => clearTimeout(timer);
  }, [done, navigate]);

  const form = useZodForm(resetPasswordBody, { code, password: '' }, async (body) => {
    // Spec document 1 §5: the length is told before asking the server; the rest of the rule the server tells.
    if (body.password.length < PASSWORD_MIN_LENGTH) {
      setError(TOO_SHORT);
      return;
    }
    setError(null);
    try {
      const answer = await call(accountEndpoints.resetPassword, body);
      if (answer.success)
        setDone(answer.message || 'Your password was changed. Sign in with your new password.');
      else setError(answer.message || FAILURE);
    } catch (failure) {
      setError(errorMessage(failure, FAILURE));
    }
  });

  if (checkRefused)
    return (
      <PublicLayout title="Choose a new password" description="Your reset link could not be checked yet.">
        <Stack gap="md">
          <FormAlert kind="error">{checkRefused}</FormAlert>
          <Button variant="light" onClick={() => setChecks((n) => n + 1)}>
            Check the link again
          </Button>
          <Anchor component={Link} to="/login" fz="sm">
            <IconArrowLeft size={14} style={{ verticalAlign: 'middle', marginRight: 4 }} />
            Back to sign in
          </Anchor>
        </Stack>
      </PublicLayout>
    );
  if (!checked) return <FullPageLoader label="Checking your reset link…" />;

  return (
    <PublicLayout title="Choose a new password" description="The new password replaces your current one.">
      {done ? (
        <Stack gap="md">
          <FormAlert kind="success">{done}</FormAlert>
          <Text c="dimmed" fz="sm">
            Taking you to the sign-in page…
          </Text>
          <Anchor component={Link} to="/login" fz="sm">
            Go to sign in now
          </Anchor>
        </Stack>
      ) : (
        <form onSubmit={form.handleSubmit} noValidate>
          <Stack gap="md">
            <PasswordField
              label="New password"
              description={PASSWORD_HINT}
              autoComplete="new-password"
              value={form.values.password}
              onChange={(event) => {
                form.set('password', event.currentTarget.value);
                setError(null);
              }}
              {...form.blur('password')}
              error={form.error('password')}
              required
              withAsterisk={false}
              autoFocus
            />
            <Button
              type="submit"
              fullWidth
              size="md"
              loading={form.submitting}
              disabled={!form.ready}
              leftSection={<IconLockCheck size={18} />}
            >
              Reset password
            </Button>
            {error && <FormAlert kind="error">{error}</FormAlert>}
            <Anchor component={Link} to="/login" fz="sm">
              <IconArrowLeft size={14} style={{ verticalAlign: 'middle', marginRight: 4 }} />
              Back to sign in
            </Anchor>
          </Stack>
        </form>
      )}
    </PublicLayout>
  );
}
