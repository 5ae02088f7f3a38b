import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import {
  accountEndpoints,
  DEPARTMENT_DESCRIPTIONS,
  DEPARTMENT_LABELS,
  DEPARTMENTS,
  type Department,
  registerBody,
} from '@paydesk/domain';
import { IconUserPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { call, errorMessage } from '../../app/api';
import { adminKeys } from '../../app/queryKeys';
import { DepartmentSelect } from '../../components/DepartmentSelect';
import { EmailField } from '../../components/EmailField';
import { FormAlert } from '../../components/FormAlert';
import { useZodForm } from '../../components/forms/useZodForm';
import { NewPasswordFields } from '../../components/NewPasswordFields';
import { PageHeader } from '../../components/PageHeader';

function RegisterForm() {
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<{ kind: 'success' | 'error'; message: string } | null>(null);
  const form = useZodForm(
    registerBody,
    { email: '', department: null as Department | null, password: '', confirmpassword: '' },
    async (body) => {
      setOutcome(null);
      try {
        const answer = await call(accountEndpoints.register, body);
        if (answer.success) {
          form.reset();
          // The whole admin area: the audit log records the registration too.
          await queryClient.invalidateQueries({ queryKey: adminKeys.all });
        }
        setOutcome({
          kind: answer.success ? 'success' : 'error',
          message:
            answer.message || (answer.success ? 'The user was registered.' : 'The user was not registered.'),
        });
      } catch (failure) {
        setOutcome({
          kind: 'error',
          message: errorMessage(failure, 'The user was not registered. Please try again.'),
        });
      }
    },
  );
  const { department } = form.values;

  return (
    <Group align="flex-start" gap="lg" wrap="wrap">
      <Paper withBorder radius="lg" p="xl" maw={520} style={{ flex: '1 1 420px' }}>
        <form onSubmit={form.handleSubmit} noValidate>
          <Stack gap="md">
            <EmailField
              autoComplete="off"
              placeholder="new.user@company.com"
              value={form.values.email}
              onChange={(email) => form.set('email', email)}
              {...form.blur('email')}
              error={form.error('email')}
            />
            <DepartmentSelect
              value={department}
              onChange={(value) => form.set('department', value)}
              description={
                department ? DEPARTMENT_DESCRIPTIONS[department] : 'Decides which screens the user sees'
              }
            />
            <NewPasswordFields password={form.text('password')} confirm={form.text('confirmpassword')} />
            <Button
              type="submit"
              loading={form.submitting}
              disabled={!form.ready}
              leftSection={<IconUserPlus size={16} />}
            >
              Register
            </Button>
            {outcome && <FormAlert kind={outcome.kind}>{outcome.message}</FormAlert>}
          </Stack>
        </form>
      </Paper>
      <DepartmentGuide selected={department} />
    </Group>
  );
}

/** The five departments and what each may do, beside the choice. */
function DepartmentGuide({ selected }: { selected: Department | null }) {
  return (
    <Paper withBorder radius="lg" p="lg" maw={440} style={{ flex: '1 1 320px' }}>
      <Title order={2} fz="md" mb="sm" data-testid="department-guide">
        Departments
      </Title>
      <Stack gap="sm">
        {DEPARTMENTS.map((d) => (
          <div key={d} data-testid={`department-${d}`}>
            <Text fz="sm" fw={d === selected ? 700 : 600} c={d === selected ? 'indigo.7' : undefined}>
              {DEPARTMENT_LABELS[d]}
            </Text>
            <Text fz="xs" c="dimmed">
              {DEPARTMENT_DESCRIPTIONS[d]}
            </Text>
          </div>
        ))}
      </Stack>
    </Paper>
  );
}

export default function RegisterScreen() {
  return (
    <>
      <PageHeader
        title="Register a user"
        description="Create a PayDesk sign-in. Extra permissions and an ISO are set afterwards on the Users screen."
      />
      <RegisterForm />
    </>
  );
}
