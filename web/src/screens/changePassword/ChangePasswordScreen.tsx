import { Anchor, Button, Paper, Stack, Text, TextInput } from '@mantine/core';
import { accountEndpoints, changePasswordBody } from '@paydesk/domain';
import { IconKey } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { call, errorMessage } from '../../app/api';
import { useSession, useSessionUser } from '../../app/session';
import { FormAlert } from '../../components/FormAlert';
import { useZodForm } from '../../components/forms/useZodForm';
import { NewPasswordFields } from '../../components/NewPasswordFields';
import { PageHeader } from '../../components/PageHeader';
import { PasswordField } from '../../components/PasswordField';

/** The server ends the session when the password changes; the message stays this long before /login. */
const SIGN_IN_AGAIN_MS = 3_000;

export default function ChangePasswordScreen() {
  const user = useSessionUser();
  const { endSession } = useSession();
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(() => endSession(done), SIGN_IN_AGAIN_MS);
    return () => clearTimeout(timer);
  }, [done, endSession]);

  const form = useZodForm(
    changePasswordBody,
    { email: user.email, oldpassword: '', password: '', confirmpassword: '' },
    async (body) => {
      setError(null);
      try {
        const answer = await call(accountEndpoints.changePassword, body);
        if (answer.success)
          setDone(answer.message || 'Your password was changed. Sign in with your new password.');
        else setError(answer.message || 'Your password was not changed.');
      } catch (failure) {
        setError(errorMessage(failure, 'Your password was not changed. Please try again.'));
      }
    },
  );

  return (
    <>
      <PageHeader
        title="Change password"
        description="After the change you sign in again with the new password."
      />
      <Paper withBorder radius="lg" p="xl" maw={520}>
        {done ? (
          <Stack gap="md">
            <FormAlert kind="success">{done}</FormAlert>
            <Text c="dimmed" fz="sm">
              Your session has ended. Taking you to the sign-in page…
            </Text>
            <Anchor component="button" type="button" fz="sm" ta="left" onClick={() => endSession(done)}>
              Sign in again now
            </Anchor>
          </Stack>
        ) : (
          <form onSubmit={form.handleSubmit} noValidate>
            <Stack gap="md">
              <TextInput label="Email" value={user.email} readOnly autoComplete="username" variant="filled" />
              <PasswordField label="Current password" {...form.text('oldpassword')} />
              <NewPasswordFields password={form.text('password')} confirm={form.text('confirmpassword')} />
              <Button
                type="submit"
                loading={form.submitting}
                disabled={!form.ready}
                leftSection={<IconKey size={16} />}
              >
                Change password
              </Button>
              {error && <FormAlert kind="error">{error}</FormAlert>}
            </Stack>
          </form>
        )}
      </Paper>
    </>
  );
}
