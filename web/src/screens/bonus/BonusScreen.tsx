import { Button, Tabs } from '@mantine/core';
import { hasPermission } from '@paydesk/domain/access';
import { IconPlayerPlay } from '@tabler/icons-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useSessionUser } from '../../app/session';
import { PageHeader } from '../../components/PageHeader';
import { ActivationTab } from './ActivationTab';
import { ActivityLogTab } from './ActivityLogTab';
import { BonusesTab } from './BonusesTab';
import { ClawbacksTab } from './ClawbacksTab';
import { RunModal } from './RunModal';
import { SpecificationsTab } from './SpecificationsTab';

/** `staff`: internal staff only; the server refuses partner staff the specifications and the log. */
const TABS = [
  { value: 'bonuses', label: 'Bonuses', staff: false },
  { value: 'clawbacks', label: 'Clawbacks', staff: false },
  { value: 'activation', label: 'Activation', staff: false },
  { value: 'specifications', label: 'Specifications', staff: true },
  { value: 'logs', label: 'Activity Logs', staff: true },
] as const;
type Tab = (typeof TABS)[number]['value'];

/**
 * Bonus & Clawback (spec document 3 §2.3): the bonuses earned per window, their clawbacks, merchants still
 * to reach activation, the specifications that decide all three, and the log of runs and changes. The tab is
 * kept in the URL (?tab=clawbacks). Marking rows and editing specifications need the bonus editing
 * capability, which the server checks too; partner staff see their ISO's rows only.
 */
export default function BonusScreen() {
  const user = useSessionUser();
  const canEdit = hasPermission(user, 'bonus_edit');
  const canRun = hasPermission(user, 'manage_jobs');
  const [running, setRunning] = useState(false);
  const [params, setParams] = useSearchParams();
  const tabs = TABS.filter((t) => !(t.staff && user.iso));
  const tab: Tab = tabs.find((t) => t.value === params.get('tab'))?.value ?? 'bonuses';
  return (
    <>
      <PageHeader
        title="Bonus & Clawback"
        description={
          user.iso
            ? `${user.iso.name}: the bonuses your merchants earned, their clawbacks and activation.`
            : canEdit
              ? 'Bonuses earned by ISOs per window, clawbacks and activation, computed by the specifications. Every run and change is in the activity log.'
              : 'Bonuses earned by ISOs per window, clawbacks and activation. Marking rows and editing specifications need the bonus editing permission.'
        }
        actions={
          canRun && (
            <Button
              variant="default"
              leftSection={<IconPlayerPlay size={16} />}
              onClick={() => setRunning(true)}
            >
              Runs
            </Button>
          )
        }
      />
      {canRun && <RunModal opened={running} onClose={() => setRunning(false)} />}
      <Tabs
        value={tab}
        onChange={(value) => value && setParams(value === 'bonuses' ? {} : { tab: value })}
        keepMounted={false}
      >
        <Tabs.List mb="md">
          {tabs.map((t) => (
            <Tabs.Tab key={t.value} value={t.value}>
              {t.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="bonuses">
          <BonusesTab canEdit={canEdit} />
        </Tabs.Panel>
        <Tabs.Panel value="clawbacks">
          <ClawbacksTab canEdit={canEdit} />
        </Tabs.Panel>
        <Tabs.Panel value="activation">
          <ActivationTab />
        </Tabs.Panel>
        {!user.iso && (
          <>
            <Tabs.Panel value="specifications">
              <SpecificationsTab canEdit={canEdit} />
            </Tabs.Panel>
            <Tabs.Panel value="logs">
              <ActivityLogTab />
            </Tabs.Panel>
          </>
        )}
      </Tabs>
    </>
  );
}
