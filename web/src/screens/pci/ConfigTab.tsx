import { Button, Group, Loader, Select, Stack, Table, Tabs, Text, TextInput, Title } from '@mantine/core';
import {
  hasPermission,
  PCI_DEFAULT_FEE_FLAG,
  PCI_DEFAULT_FEE_FLAGS,
  PCI_FLAG_DESCRIPTIONS,
  PCI_FLAGS,
  PCI_FREQUENCIES,
  PCI_MESSAGES,
  type PciDefaultFeeFlag,
  type PciFlag,
  pciEndpoints,
  validateFeeExceptions,
  validateFrequencyExceptions,
} from '@paydesk/domain';
import { IconDeviceFloppy, IconRefresh } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { call, errorMessage } from '../../app/api';
import { pciKeys } from '../../app/queryKeys';
import { useSessionUser } from '../../app/session';
import { FormAlert } from '../../components/FormAlert';
import { formatCell } from '../../components/format';
import { ExceptionGroups } from './ExceptionGroups';
import {
  emptyFeeGroup,
  emptyFrequencyGroup,
  type FeeGroupDraft,
  type FrequencyGroupDraft,
  feeBody,
  feeGroupsOf,
  frequencyBody,
  frequencyGroupsOf,
} from './pciExceptions';
import { RevSharesPanel } from './RevSharesPanel';

const flagLabel = (flag: PciFlag) => `${flag} · ${PCI_FLAG_DESCRIPTIONS[flag]}`;
type Outcome = { kind: 'error' | 'success'; text: string } | null;

function useConfigList<T>(list: string, load: () => Promise<T>) {
  return useQuery({ queryKey: pciKeys.configList(list), queryFn: load });
}

function useFilterChoices() {
  const filters = useConfigList('filters', () => call(pciEndpoints.getFilters));
  const operators = useConfigList('operators', () => call(pciEndpoints.getFilterOperators));
  return {
    filters: filters.data ?? [],
    operators: operators.data ?? [],
    ready: !!filters.data && !!operators.data,
  };
}

/**
 * Config (spec §2.2; pci_restricted): the billing types, the fees and the ISOs' PCI rev shares. Saving the
 * defaults and the exceptions needs PCI fee editing; the others see them read-only.
 */
export function ConfigTab() {
  const user = useSessionUser();
  const canEditFees = hasPermission(user, 'pci_fees');
  const [sub, setSub] = useState<string | null>('billingtypes');
  return (
    <Tabs value={sub} onChange={setSub} variant="pills" keepMounted={false}>
      <Tabs.List mb="md">
        <Tabs.Tab value="billingtypes">Billing Types</Tabs.Tab>
        <Tabs.Tab value="fees">Fees</Tabs.Tab>
        <Tabs.Tab value="revshares">Rev Shares</Tabs.Tab>
      </Tabs.List>
      {!canEditFees && (
        <Text fz="sm" c="dimmed" mb="sm">
          Changing the billing types and fees needs the PCI fee editing permission.
        </Text>
      )}
      <Tabs.Panel value="billingtypes">
        <BillingTypesPanel canEdit={canEditFees} />
      </Tabs.Panel>
      <Tabs.Panel value="fees">
        <FeesPanel canEdit={canEditFees} />
      </Tabs.Panel>
      <Tabs.Panel value="revshares">
        <RevSharesPanel />
      </Tabs.Panel>
    </Tabs>
  );
}

function Section({ title, children, hint }: { title: string; children: ReactNode; hint?: string }) {
  return (
    <Stack gap="xs" mb="xl" role="region" aria-label={title}>
      <div>
        <Title order={4}>{title}</Title>
        {hint && (
          <Text fz="sm" c="dimmed">
            {hint}
          </Text>
        )}
      </div>
      {children}
    </Stack>
  );
}

function BillingTypesPanel({ canEdit }: { canEdit: boolean }) {
  const queryClient = useQueryClient();
  const defaults = useConfigList('defaultFrequency', () => call(pciEndpoints.getDefaultFrequencies));
  const fees = useConfigList('defaultFees', () => call(pciEndpoints.getDefaultFees));
  const stored = defaults.data?.[0]?.frequency ?? null;
  const [frequency, setFrequency] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const shown = frequency ?? stored;

  const save = async () => {
    if (!shown) return;
    setBusy(true);
    try {
      await call(pciEndpoints.updateDefaultFrequency, { flag: shown as (typeof PCI_FREQUENCIES)[number] });
      setOutcome({ kind: 'success', text: PCI_MESSAGES.saved });
      setFrequency(null);
      await queryClient.invalidateQueries({ queryKey: pciKeys.all });
    } catch (error) {
      setOutcome({ kind: 'error', text: errorMessage(error, PCI_MESSAGES.defaultFeeFailed) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Section
        title="Default billing type"
        hint="How often merchants are billed the program fee, unless an exception below matches."
      >
        <Group align="flex-end" gap="sm">
          <Select
            label="Default billing type"
            w={240}
            data={PCI_FREQUENCIES.map((f) => ({ value: f, label: flagLabel(f) }))}
            value={shown}
            onChange={setFrequency}
            allowDeselect={false}
            disabled={!canEdit || defaults.isPending}
          />
          {canEdit && (
            <Button onClick={() => void save()} loading={busy} disabled={!frequency || frequency === stored}>
              Save default
            </Button>
          )}
        </Group>
        {outcome && <FormAlert kind={outcome.kind}>{outcome.text}</FormAlert>}
      </Section>
      <Section title="Default fee amounts" hint="Changed on the Fees tab.">
        {fees.isPending ? (
          <Loader size="sm" />
        ) : (
          <Table withTableBorder maw={560} aria-label="Default fee amounts">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Flag</Table.Th>
                <Table.Th ta="right">Amount</Table.Th>
                <Table.Th ta="right">ISO Cost</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(fees.data ?? []).map((fee) => (
                <Table.Tr key={fee.fee_flag}>
                  <Table.Td>{flagLabel(fee.fee_flag)}</Table.Td>
                  <Table.Td ta="right">{formatCell('money', fee.amount)}</Table.Td>
                  <Table.Td ta="right">{formatCell('money', fee.iso_cost)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Section>
      <FrequencyExceptions canEdit={canEdit} />
    </>
  );
}

/** Reset and Save of an exception list (spec §4, §5). */
function EditorActions({
  canEdit,
  busy,
  onReset,
  onSave,
  noun,
}: {
  canEdit: boolean;
  busy: boolean;
  onReset: () => void;
  onSave: () => void;
  noun: string;
}) {
  if (!canEdit) return null;
  return (
    <Group gap="sm">
      <Button leftSection={<IconDeviceFloppy size={16} />} onClick={onSave} loading={busy}>
        Save {noun}
      </Button>
      <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={onReset} disabled={busy}>
        Reset
      </Button>
    </Group>
  );
}

/** The stored list as editable groups, again each time the stored list is (re)loaded. */
function useDraft<R, G>(rows: R[] | undefined, toGroups: (rows: R[]) => G[]) {
  const [groups, setGroups] = useState<G[] | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new answer from the server is the trigger
  useEffect(() => {
    if (rows) setGroups(toGroups(rows));
  }, [rows]);
  return [groups, setGroups] as const;
}

/**
 * The state of an exception editor (billing types or fees): the stored groups as an editable draft, Save (checked
 * with the domain's rules first, so the spec's messages show before anything is sent) and Reset (the stored
 * groups again).
 */
function useExceptionEditor<R, G, B>(options: {
  list: string;
  load: () => Promise<R[]>;
  toGroups: (rows: R[]) => G[];
  toBody: (groups: G[]) => B;
  validate: (body: B) => { ok: true } | { ok: false; message: string };
  insert: (body: B) => Promise<{ message?: string }>;
}) {
  const queryClient = useQueryClient();
  const stored = useConfigList(options.list, options.load);
  const [groups, setDraft] = useDraft(stored.data, options.toGroups);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const setGroups = (next: G[]) => {
    setDraft(next);
    setOutcome(null);
  };
  const save = async () => {
    if (!groups) return;
    const body = options.toBody(groups);
    const checked = options.validate(body);
    if (!checked.ok) {
      setOutcome({ kind: 'error', text: checked.message });
      return;
    }
    setBusy(true);
    try {
      const answer = await options.insert(body);
      setOutcome({ kind: 'success', text: answer.message || PCI_MESSAGES.saved });
      await queryClient.invalidateQueries({ queryKey: pciKeys.all });
    } catch (error) {
      setOutcome({ kind: 'error', text: errorMessage(error, 'The exceptions were not saved. Try again.') });
    } finally {
      setBusy(false);
    }
  };
  const reset = async () => {
    setOutcome(null);
    const answer = await stored.refetch();
    if (answer.data) setDraft(options.toGroups(answer.data));
  };
  return { groups, setGroups, busy, outcome, save, reset };
}

function FrequencyExceptions({ canEdit }: { canEdit: boolean }) {
  const { filters, operators, ready } = useFilterChoices();
  const { groups, setGroups, busy, outcome, save, reset } = useExceptionEditor({
    list: 'frequencies',
    load: () => call(pciEndpoints.getFrequencies),
    toGroups: frequencyGroupsOf,
    toBody: frequencyBody,
    validate: validateFrequencyExceptions,
    insert: (body) => call(pciEndpoints.insertFrequency, body),
  });

  return (
    <Section
      title="Billing type exceptions"
      hint="Merchants matching every filter of an exception get its billing type; the first matching exception wins."
    >
      {!groups || !ready ? (
        <Loader size="sm" />
      ) : (
        <ExceptionGroups<FrequencyGroupDraft>
          noun="Billing type exception"
          groups={groups}
          onChange={setGroups}
          newGroup={emptyFrequencyGroup}
          filters={filters}
          operators={operators}
          readOnly={!canEdit}
          outcome={(group, change, n) => (
            <Select
              size="xs"
              w={200}
              label="Billing type"
              aria-label={`Billing type exception ${n} billing type`}
              placeholder="Billing type"
              data={PCI_FREQUENCIES.map((f) => ({ value: f, label: flagLabel(f) }))}
              value={group.frequency}
              onChange={(v) => change({ ...group, frequency: v })}
              disabled={!canEdit}
            />
          )}
        />
      )}
      {outcome && <FormAlert kind={outcome.kind}>{outcome.text}</FormAlert>}
      <EditorActions
        canEdit={canEdit}
        busy={busy}
        noun="billing type exceptions"
        onSave={() => void save()}
        onReset={() => void reset()}
      />
    </Section>
  );
}

function FeesPanel({ canEdit }: { canEdit: boolean }) {
  return (
    <>
      <DefaultFee canEdit={canEdit} />
      <FeeExceptions canEdit={canEdit} />
    </>
  );
}

/** Spec §4, §5: the default fee form starts at MTF; amounts are numbers, 0 by default. */
function DefaultFee({ canEdit }: { canEdit: boolean }) {
  const queryClient = useQueryClient();
  const fees = useConfigList('defaultFees', () => call(pciEndpoints.getDefaultFees));
  const [flag, setFlag] = useState<PciDefaultFeeFlag>(PCI_DEFAULT_FEE_FLAG);
  const [draft, setDraft] = useState<{ amount: string; iso_cost: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const stored = fees.data?.find((f) => f.fee_flag === flag);
  const values = draft ?? { amount: stored?.amount ?? '0', iso_cost: stored?.iso_cost ?? '0' };

  const save = async () => {
    setBusy(true);
    setOutcome(null);
    try {
      await call(pciEndpoints.updateDefaultFee, {
        flag,
        amount: values.amount.trim() === '' ? 0 : values.amount.trim(),
        iso_cost: values.iso_cost.trim() === '' ? 0 : values.iso_cost.trim(),
      });
      setOutcome({ kind: 'success', text: PCI_MESSAGES.saved });
      setDraft(null);
      await queryClient.invalidateQueries({ queryKey: pciKeys.all });
    } catch (error) {
      const detail = errorMessage(error, '');
      setOutcome({
        kind: 'error',
        text:
          detail && detail !== PCI_MESSAGES.defaultFeeFailed
            ? `${PCI_MESSAGES.defaultFeeFailed} ${detail}`
            : PCI_MESSAGES.defaultFeeFailed,
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Section
      title="Default fee"
      hint="What a merchant is billed for each flag unless a fee exception below matches."
    >
      <Group align="flex-end" gap="sm">
        <Select
          label="Flag"
          w={240}
          data={PCI_DEFAULT_FEE_FLAGS.map((f) => ({ value: f, label: flagLabel(f) }))}
          value={flag}
          onChange={(v) => {
            if (!v) return;
            setFlag(v as PciDefaultFeeFlag);
            setDraft(null);
            setOutcome(null);
          }}
          allowDeselect={false}
        />
        <TextInput
          label="Amount"
          w={130}
          inputMode="decimal"
          leftSection="$"
          value={values.amount}
          onChange={(e) => setDraft({ ...values, amount: e.currentTarget.value })}
          disabled={!canEdit}
        />
        <TextInput
          label="ISO Cost"
          w={130}
          inputMode="decimal"
          leftSection="$"
          value={values.iso_cost}
          onChange={(e) => setDraft({ ...values, iso_cost: e.currentTarget.value })}
          disabled={!canEdit}
        />
        {canEdit && (
          <Button onClick={() => void save()} loading={busy} disabled={draft === null}>
            Save default fee
          </Button>
        )}
      </Group>
      {outcome && <FormAlert kind={outcome.kind}>{outcome.text}</FormAlert>}
    </Section>
  );
}

function FeeExceptions({ canEdit }: { canEdit: boolean }) {
  const { filters, operators, ready } = useFilterChoices();
  const { groups, setGroups, busy, outcome, save, reset } = useExceptionEditor({
    list: 'fees',
    load: () => call(pciEndpoints.getFees),
    toGroups: feeGroupsOf,
    toBody: feeBody,
    validate: validateFeeExceptions,
    insert: (body) => call(pciEndpoints.insertFee, body),
  });

  return (
    <Section
      title="Fee exceptions"
      hint="Merchants matching every filter of an exception are billed its fee instead of the default; the first matching exception wins. SMF skips the monthly fee."
    >
      {!groups || !ready ? (
        <Loader size="sm" />
      ) : (
        <ExceptionGroups<FeeGroupDraft>
          noun="Fee exception"
          groups={groups}
          onChange={setGroups}
          newGroup={emptyFeeGroup}
          filters={filters}
          operators={operators}
          readOnly={!canEdit}
          outcome={(group, change, n) => (
            <>
              <Select
                size="xs"
                w={220}
                label="Flag"
                aria-label={`Fee exception ${n} flag`}
                placeholder="Flag"
                data={PCI_FLAGS.map((f) => ({ value: f, label: flagLabel(f) }))}
                value={group.fee_flag}
                onChange={(v) => change({ ...group, fee_flag: v })}
                disabled={!canEdit}
              />
              <TextInput
                size="xs"
                w={110}
                label="Amount"
                aria-label={`Fee exception ${n} amount`}
                placeholder="Amount"
                inputMode="decimal"
                leftSection="$"
                value={group.amount}
                onChange={(e) => change({ ...group, amount: e.currentTarget.value })}
                disabled={!canEdit}
              />
              <TextInput
                size="xs"
                w={110}
                label="ISO Cost"
                aria-label={`Fee exception ${n} ISO cost`}
                placeholder="ISO Cost"
                inputMode="decimal"
                leftSection="$"
                value={group.iso_cost}
                onChange={(e) => change({ ...group, iso_cost: e.currentTarget.value })}
                disabled={!canEdit}
              />
            </>
          )}
        />
      )}
      {outcome && <FormAlert kind={outcome.kind}>{outcome.text}</FormAlert>}
      <EditorActions
        canEdit={canEdit}
        busy={busy}
        noun="fee exceptions"
        onSave={() => void save()}
        onReset={() => void reset()}
      />
    </Section>
  );
}
