import { Anchor, Button, Paper, Stack, Text, TextInput } from '@mantine/core';
import { accountEndpoints, PASSWORD_HINT } from '@paydesk/domain';
import { IconKey } from '@tabler/icons-react';
import { type FormEvent, useEffect, useState } from 'react';
import { call, errorMessage } from '../../app/api';
import { useSession, useSessionUser } from '../../app/session';
import { FormAlert } from '../../components/FormAlert';
import { PageHeader } from '../../components/PageHeader';
import { PasswordField } from '../../components/PasswordField';

/** The server ends the session when the password changes; the message stays this long before /login. */
const SIGN_IN_AGAIN_MS = 3_000;

export default function ChangePasswordScreen() {
  const user = useSessionUser();
  const { endSession } = useSession();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(() => endSession(done), SIGN_IN_AGAIN_MS);
    return () => clearTimeout(timer);
  }, [done, endSession]);

  const mismatch = confirm !== '' && password !== confirm;
  const ready = current !== '' && password !== '' && confirm !== '' && password === confirm;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!ready) return;
    setLoading(true);
    setError(null);
    try {
      const answer = await call(accountEndpoints.changePassword, {
        email: user.email,
        oldpassword: current,
        password,
        confirmpassword: confirm,
      });
      if (answer.success)
        setDone(answer.message || 'Your password was changed. Sign in with your new password.');
      else setError(answer.message || 'Your password was not changed.');
    } catch (failure) {
      setError(errorMessage(failure, 'Your password was not changed. Please try again.'));
    } finally {
      setLoading(false);
    }
  };

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
          <form onSubmit={submit} noValidate>
            <Stack gap="md">
              <TextInput label="Email" value={user.email} readOnly autoComplete="username" variant="filled" />
              <PasswordField
                label="Current password"
                value={current}
                onChange={(event) => setCurrent(event.currentTarget.value)}
              />
              <PasswordField
                label="New password"
                description={PASSWORD_HINT}
                autoComplete="new-password"
                value={password}
                onChange={(event) => setPassword(event.currentTarget.value)}
              />
              <PasswordField
                label="Confirm password"
                autoComplete="new-password"
                value={confirm}
                onChange={(event) => setConfirm(event.currentTarget.value)}
                error={mismatch ? 'New password and confirm password do not match' : undefined}
              />
              <Button type="submit" loading={loading} disabled={!ready} leftSection={<IconKey size={16} />}>
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
