import { Anchor, Button, Group, Stack } from '@mantine/core';
import { accountRefs } from '@paydesk/domain/contracts/accountPaths';
import { IconLogin2 } from '@tabler/icons-react';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { call, errorMessage } from '../../app/api';
import { type LoginNotice, useSession } from '../../app/session';
import { EmailField } from '../../components/EmailField';
import { FormAlert } from '../../components/FormAlert';
import { PasswordField } from '../../components/PasswordField';
import { PublicLayout } from '../../components/PublicLayout';

export default function LoginScreen() {
  const { validate, signedIn } = useSession();
  const navigate = useNavigate();
  const notice = (useLocation().state as LoginNotice | null)?.notice;
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);

  // A visitor who still has a valid session goes straight to the landing page.
  useEffect(() => {
    let current = true;
    validate().then((user) => {
      if (current && user) navigate('/sales', { replace: true });
    });
    return () => {
      current = false;
    };
  }, [validate, navigate]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (email === '' || password === '') return;
    setLoading(true);
    setError(null);
    try {
      const answer = await call(accountRefs.signin, { email, password });
      const user = answer.success ? (answer.user ?? (await validate())) : null;
      if (!user) {
        setError(answer.message || 'Error!');
        setLoading(false);
        return;
      }
      signedIn(user);
      navigate('/sales', { replace: true });
    } catch (failure) {
      setError(errorMessage(failure, 'Error!'));
      setLoading(false);
    }
  };

  return (
    <PublicLayout title="Sign in" description="Use your PayDesk e-mail address and password.">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {notice && <FormAlert kind="info">{notice}</FormAlert>}
          <EmailField value={email} onChange={setEmail} data-autofocus autoFocus />
          <PasswordField
            label="Password"
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
          />
          <Group justify="flex-end" mt={-6}>
            <Anchor component={Link} to="/forgot" fz="sm">
              Forgot password?
            </Anchor>
          </Group>
          <Button
            type="submit"
            fullWidth
            size="md"
            loading={loading}
            disabled={email === '' || password === ''}
            leftSection={<IconLogin2 size={18} />}
          >
            Login
          </Button>
          {error && <FormAlert kind="error">{error}</FormAlert>}
        </Stack>
      </form>
    </PublicLayout>
  );
}
