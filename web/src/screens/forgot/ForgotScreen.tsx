import { Anchor, Button, Stack, Text } from '@mantine/core';
import {
  accountEndpoints,
  FORGOT_PASSWORD_MESSAGE,
  FORGOT_REDIRECT_MS,
  forgotPasswordBody,
} from '@paydesk/domain';
import { IconArrowLeft, IconSend } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { call, isRateLimited } from '../../app/api';
import { EmailField } from '../../components/EmailField';
import { FormAlert } from '../../components/FormAlert';
import { useZodForm } from '../../components/forms/useZodForm';
import { PublicLayout } from '../../components/PublicLayout';

const FAILURE = 'Something went wrong! please try again';

export default function ForgotScreen() {
  const navigate = useNavigate();
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!sent) return;
    const timer = setTimeout(() => navigate('/login', { replace: true }), FORGOT_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [sent, navigate]);

  const form = useZodForm(forgotPasswordBody, { email: '' }, async (body) => {
    setError(null);
    try {
      const answer = await call(accountEndpoints.forgotPassword, body);
      if (answer.success) setSent(true);
      else setError(FAILURE);
    } catch (failure) {
      // The spec's one failure message, except for a refusal that says when to try again.
      setError(isRateLimited(failure) ? failure.message : FAILURE);
    }
  });

  return (
    <PublicLayout
      title="Forgot password"
      description="Enter the e-mail address you sign in with and we will send you a link to choose a new password."
    >
      {sent ? (
        <Stack gap="md">
          <FormAlert kind="success">{FORGOT_PASSWORD_MESSAGE}</FormAlert>
          <Text c="dimmed" fz="sm">
            Taking you back to the sign-in page in {FORGOT_REDIRECT_MS / 1000} seconds.
          </Text>
          <Anchor component={Link} to="/login" fz="sm">
            Go to sign in now
          </Anchor>
        </Stack>
      ) : (
        <form onSubmit={form.handleSubmit} noValidate>
          <Stack gap="md">
            <EmailField
              value={form.values.email}
              onChange={(email) => form.set('email', email)}
              {...form.blur('email')}
              error={form.error('email')}
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
              leftSection={<IconSend size={18} />}
            >
              Send
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
