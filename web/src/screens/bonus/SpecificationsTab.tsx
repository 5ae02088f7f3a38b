import { Alert, Button, Group, SegmentedControl, Stack, Tabs, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  type ActivationSpec,
  addActivationBody,
  addBonusEquipmentBody,
  addBonusIsoBody,
  addClawbackBody,
  addExcludeBody,
  addExclusiveEquipmentBody,
  addExtraBonusIsoBody,
  BONUS_DEFAULTS,
  BONUS_PROFILE_LABELS,
  BONUS_PROFILES,
  type BonusChangeAnswer,
  type BonusExcludeSpec,
  type BonusIsoSpec,
  type BonusProfile,
  bonusEndpoints,
  type ClawbackSpec,
  type Equipment,
  EXTRA_BONUS_TYPE_LABELS,
  EXTRA_BONUS_TYPES,
  type ExclusiveEquipment,
  type ExtraBonusSpec,
  SPEC_PERIODS,
  type SpecPeriod,
} from '@paydesk/domain';
import { IconCheck, IconInfoCircle, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useSearchParams } from 'react-router';
import { call, errorMessage } from '../../app/api';
import { bonusKeys } from '../../app/queryKeys';
import type { Column, RowAction } from '../../components/DataTable';
import { formatCount } from '../../components/format';
import { moneyCell } from './BonusesTab';
import { localToday } from './bonusSearch';
import { ConfirmModal } from './ConfirmModal';
import { ListTable } from './ListTable';
import { SpecForm, type SpecFormConfig, type SpecValues } from './SpecForm';
import { amountText, needingGroups } from './specValues';

const SUB_TABS = [
  { value: 'bonus', label: 'Bonus' },
  { value: 'extra', label: 'Extra' },
  { value: 'clawback', label: 'Clawback' },
  { value: 'activation', label: 'Activation' },
  { value: 'equipment', label: 'Equipment' },
] as const;
type SubTab = (typeof SUB_TABS)[number]['value'];
const isSubTab = (v: string | null): v is SubTab => SUB_TABS.some((t) => t.value === v);

const PERIOD_LABELS: Record<SpecPeriod, string> = { W: 'Weekly', M: 'Monthly' };

/** What the forms and the banners share: the ISOs to choose from, the equipment models, the windows. */
function useSpecContext() {
  const isos = useQuery({ queryKey: bonusKeys.isoList(), queryFn: () => call(bonusEndpoints.getIsoList) });
  const models = useQuery({
    queryKey: bonusKeys.equipmentList(),
    queryFn: () => call(bonusEndpoints.getEquipmentList),
  });
  const windows = useQuery({ queryKey: bonusKeys.windows(), queryFn: () => call(bonusEndpoints.windows) });
  return { isos: isos.data, models: models.data?.map((m) => m.model), windows: windows.data };
}
type SpecContext = ReturnType<typeof useSpecContext>;

/** The open form and the asked deletion of one sub-tab; both refresh the lists and the log when done. */
function useSpecEditing() {
  const queryClient = useQueryClient();
  const [form, setForm] = useState<SpecFormConfig<unknown> | null>(null);
  const [deleting, setDeleting] = useState<{
    subject: ReactNode;
    run: () => Promise<BonusChangeAnswer>;
  } | null>(null);
  const [busy, setBusy] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: bonusKeys.specs() });
    void queryClient.invalidateQueries({ queryKey: bonusKeys.logs() });
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      const answer = await deleting.run();
      if (!answer.success) {
        setDeleteError(answer.message);
        return;
      }
      notifications.show({ color: 'teal', title: 'Deleted', message: answer.message || 'Deleted.' });
      setDeleting(null);
      refresh();
    } catch (error) {
      setDeleteError(errorMessage(error, 'It was not deleted. Please try again.'));
    } finally {
      setBusy(false);
    }
  };

  return {
    open: <Body,>(config: SpecFormConfig<Body>) => setForm(config),
    askDelete: (subject: ReactNode, run: () => Promise<BonusChangeAnswer>) => {
      setDeleteError(null);
      setDeleting({ subject, run });
    },
    modals: (context: SpecContext) => (
      <>
        <SpecForm
          config={form}
          isos={context.isos}
          models={context.models}
          onClose={() => setForm(null)}
          onSaved={(message) => {
            notifications.show({ color: 'teal', title: 'Saved', message });
            setForm(null);
            refresh();
          }}
        />
        <ConfirmModal
          subject={deleting?.subject ?? null}
          title="Delete"
          confirmLabel="Delete"
          busy={busy}
          error={deleteError}
          onConfirm={confirmDelete}
          onClose={() => setDeleting(null)}
        />
      </>
    ),
  };
}

const str = (v: SpecValues[string] | undefined) => (typeof v === 'string' ? v : '');
const isoOf = (v: SpecValues) => (str(v.iso_name) === '' ? null : str(v.iso_name));
const ISO_FIELDS = [
  { name: 'iso_name', label: 'ISO', kind: 'iso' },
  { name: 'group_id', label: 'Group IDs', kind: 'groups', description: 'Comma-separated' },
] as const;

/** Stored group IDs ("410001,410002") as read: "410001, 410002". */
const groupsCell = (key: string) => (key === '' ? '—' : key.split(',').join(', '));

const yes = (value: boolean) =>
  value ? <IconCheck size={16} color="var(--mantine-color-teal-7)" aria-label="Yes" /> : null;
const isoCell = (name: string | null) =>
  name ?? (
    <Text fz="sm" fw={600}>
      Default
    </Text>
  );

function Banner({ children }: { children: ReactNode }) {
  return (
    <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} />} mb="md" py="xs">
      {children}
    </Alert>
  );
}

function editActions<Row>(
  canEdit: boolean,
  onEdit: (row: Row) => void,
  onDelete: (row: Row) => void,
  undeletable?: (row: Row) => boolean,
): RowAction<Row>[] | undefined {
  if (!canEdit) return undefined;
  return [
    { label: 'Edit', icon: <IconPencil size={14} />, onClick: onEdit },
    {
      label: 'Delete',
      icon: <IconTrash size={14} />,
      color: 'red',
      onClick: onDelete,
      disabled: undeletable,
    },
  ];
}

function AddButton({ label, onClick, disabled }: { label: string; onClick: () => void; disabled?: boolean }) {
  return (
    <Button leftSection={<IconPlus size={16} />} onClick={onClick} disabled={disabled}>
      {label}
    </Button>
  );
}

/**
 * Specifications (spec document 3 §2.3): what decides every bonus, extra bonus, clawback and activation, in
 * five sub-tabs kept in the URL (?spec=clawback). Editing needs the bonus editing permission.
 */
export function SpecificationsTab({ canEdit }: { canEdit: boolean }) {
  const [params, setParams] = useSearchParams();
  const sub: SubTab = isSubTab(params.get('spec')) ? (params.get('spec') as SubTab) : 'bonus';
  const context = useSpecContext();
  return (
    <Tabs
      value={sub}
      variant="pills"
      onChange={(value) =>
        value &&
        setParams((old) => {
          const out = new URLSearchParams(old);
          out.set('spec', value);
          return out;
        })
      }
      keepMounted={false}
    >
      <Tabs.List mb="md">
        {SUB_TABS.map((t) => (
          <Tabs.Tab key={t.value} value={t.value}>
            {t.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      <Tabs.Panel value="bonus">
        <BonusSpecs canEdit={canEdit} context={context} />
      </Tabs.Panel>
      <Tabs.Panel value="extra">
        <ExtraSpecs canEdit={canEdit} context={context} />
      </Tabs.Panel>
      <Tabs.Panel value="clawback">
        <ClawbackSpecs canEdit={canEdit} context={context} />
      </Tabs.Panel>
      <Tabs.Panel value="activation">
        <ActivationSpecs canEdit={canEdit} context={context} />
      </Tabs.Panel>
      <Tabs.Panel value="equipment">
        <EquipmentSpecs canEdit={canEdit} context={context} />
      </Tabs.Panel>
    </Tabs>
  );
}

interface SubProps {
  canEdit: boolean;
  context: SpecContext;
}

const loadError = (error: unknown, what: string) =>
  error ? errorMessage(error, `${what} could not be loaded.`) : null;

// ---------------------------------------------------------------- Bonus

function BonusSpecs({ canEdit, context }: SubProps) {
  const [period, setPeriod] = useState<SpecPeriod>('W');
  const [profile, setProfile] = useState<BonusProfile>('PL');
  const body = { profile, period };
  const include = useQuery({
    queryKey: bonusKeys.spec('include', body),
    queryFn: () => call(bonusEndpoints.getBonusIsoList, body),
  });
  const exclude = useQuery({
    queryKey: bonusKeys.spec('exclude', body),
    queryFn: () => call(bonusEndpoints.getBonusExcludeIsoList, body),
  });
  const editing = useSpecEditing();
  const current = context.windows?.current[period];
  // Exclusions narrow the default spec; with a named ISO first there is no default to narrow (spec §2.3).
  const noDefault = (include.data?.[0]?.iso_name ?? null) !== null;
  const where = `${PERIOD_LABELS[period]} ${BONUS_PROFILE_LABELS[profile]}`;

  const includeForm = (row: BonusIsoSpec | null): SpecFormConfig<unknown> => {
    const isDefault = row !== null && row.iso_name === null;
    const lockedActivation = row?.on_activation === true;
    return {
      title: row ? `Edit ${where} bonus · ${row.iso_name ?? 'Default'}` : `Add ${where} bonus`,
      canForce: true,
      fields: [
        { ...ISO_FIELDS[0], disabled: () => isDefault },
        { ...ISO_FIELDS[1], disabled: () => isDefault },
        { name: 'amount', label: 'Bonus', kind: 'money', disabled: (v) => v.placement_only === true },
        {
          name: 'pay_on',
          label: 'Pay On',
          kind: {
            choice: [
              { value: 'approved', label: 'Approved' },
              { value: 'activated', label: 'Activated' },
            ],
          },
          disabled: (v) => v.placement_only === true,
        },
        {
          name: 'placement_only',
          label: 'Placement Only',
          kind: 'flag',
          description: 'No bonus amount; paid on approval',
        },
        {
          name: 'volume_days',
          label: 'Days for Volume',
          kind: 'number',
          shown: (v) => v.pay_on === 'activated',
          disabled: () => lockedActivation,
        },
        {
          name: 'volume_threshold',
          label: 'Volume Threshold',
          kind: 'money',
          shown: (v) => v.pay_on === 'activated',
          disabled: () => lockedActivation,
        },
      ],
      initial: {
        iso_name: row?.iso_name ?? null,
        group_id: row?.group_id ?? '',
        amount: amountText(row?.amount ?? ''),
        pay_on: row?.on_activation ? 'activated' : 'approved',
        placement_only: row?.placement_only ?? false,
        volume_days: String(row?.volume_days ?? BONUS_DEFAULTS.volumeDays),
        volume_threshold: amountText(row?.volume_threshold ?? String(BONUS_DEFAULTS.volumeThreshold)),
      },
      derive: (v) => (v.placement_only === true ? { ...v, amount: '0', pay_on: 'approved' } : v),
      schema: needingGroups(addBonusIsoBody),
      toBody: (v, force) => ({
        profile,
        period,
        group_id: str(v.group_id),
        amount: str(v.amount),
        force,
        edit: row ? row.group_id : false,
        iso_name: isoOf(v),
        on_activation: v.pay_on === 'activated',
        volume_days: str(v.volume_days),
        volume_threshold: str(v.volume_threshold),
        placement_only: v.placement_only === true,
      }),
      submit: (b) => call(bonusEndpoints.addBonusIso, b),
    };
  };

  const excludeForm: SpecFormConfig<unknown> = {
    title: `Exclude from the ${where} default bonus`,
    fields: [...ISO_FIELDS],
    initial: { iso_name: null, group_id: '' },
    schema: needingGroups(addExcludeBody, () => true),
    toBody: (v) => ({ profile, period, group_id: str(v.group_id) }),
    submit: (b) => call(bonusEndpoints.addExcludeBonusIso, b),
  };

  const includeColumns: Column<BonusIsoSpec>[] = [
    { key: 'iso_name', header: 'ISO', render: (r) => isoCell(r.iso_name) },
    { key: 'group_id', header: 'Group ID', render: (r) => groupsCell(r.group_id) },
    { key: 'amount', header: 'Bonus', render: (r) => moneyCell(r.amount), align: 'right', nowrap: true },
    {
      key: 'on_activation',
      header: 'On Activated',
      align: 'center',
      render: (r) => (
        <Group gap={4} justify="center" wrap="nowrap">
          {yes(r.on_activation)}
          {r.on_activation && (
            <Text fz="xs" c="dimmed">
              {formatCount(r.volume_days)} days, {moneyCell(r.volume_threshold)}
            </Text>
          )}
        </Group>
      ),
    },
    {
      key: 'placement_only',
      header: 'Placement Only',
      align: 'center',
      render: (r) => yes(r.placement_only),
    },
  ];
  const excludeColumns: Column<BonusExcludeSpec>[] = [
    { key: 'iso_name', header: 'ISO', render: (r) => r.iso_name ?? '—' },
    { key: 'group_id', header: 'Group ID', render: (r) => groupsCell(r.group_id) },
  ];

  return (
    <Stack gap="md">
      <Group gap="md">
        <SegmentedControl
          aria-label="Period"
          value={period}
          onChange={(v) => setPeriod(v as SpecPeriod)}
          data={SPEC_PERIODS.map((p) => ({ value: p, label: PERIOD_LABELS[p] }))}
        />
        <SegmentedControl
          aria-label="Profile"
          value={profile}
          onChange={(v) => setProfile(v as BonusProfile)}
          data={BONUS_PROFILES.map((p) => ({ value: p, label: BONUS_PROFILE_LABELS[p] }))}
        />
      </Group>
      {current && (
        <Banner>
          Current {PERIOD_LABELS[period].toLowerCase()} window: {current.start} to {current.end}; its bonuses
          are computed on {current.runDate}.
        </Banner>
      )}
      <div>
        <ListTable<BonusIsoSpec>
          heading={
            <Title order={3} fz="md">
              Include
            </Title>
          }
          label="Included ISOs"
          noun="specifications"
          columns={includeColumns}
          rows={include.data}
          loading={include.isFetching}
          error={loadError(include.error, 'The bonus specifications')}
          empty={{
            title: 'No bonus specifications',
            description: `Nothing is paid for ${where} merchants yet.`,
          }}
          rowKey={(r) => r.id}
          rowLabel={(r) => r.iso_name ?? 'the default'}
          rowActions={editActions<BonusIsoSpec>(
            canEdit,
            (r) => editing.open(includeForm(r)),
            (r) =>
              editing.askDelete(
                `Are you sure? The ${where} bonus of ${r.iso_name ?? 'the default'} (${r.group_id || 'every other ISO'}) will be deleted.`,
                () => call(bonusEndpoints.deleteBonusIso, { group_id: r.group_id, profile, period }),
              ),
          )}
          actions={canEdit && <AddButton label="Add bonus" onClick={() => editing.open(includeForm(null))} />}
        />
      </div>
      <div>
        <ListTable<BonusExcludeSpec>
          heading={
            <Title order={3} fz="md">
              Exclude
            </Title>
          }
          label="Excluded ISOs"
          noun="exclusions"
          columns={excludeColumns}
          rows={exclude.data}
          loading={exclude.isFetching}
          error={loadError(exclude.error, 'The exclusions')}
          empty={{
            title: 'No exclusions',
            description: 'Every ISO without its own spec earns the default bonus.',
          }}
          rowKey={(r) => r.id}
          rowLabel={(r) => r.group_id}
          rowActions={
            canEdit
              ? [
                  {
                    label: 'Delete',
                    icon: <IconTrash size={14} />,
                    color: 'red',
                    onClick: (r) =>
                      editing.askDelete(
                        `Are you sure? ${r.group_id} will earn the default bonus again.`,
                        () =>
                          call(bonusEndpoints.deleteExcludeBonusIso, {
                            group_id: r.group_id,
                            profile,
                            period,
                          }),
                      ),
                  },
                ]
              : undefined
          }
          actions={
            canEdit && (
              <AddButton
                label="Add exclusion"
                disabled={noDefault}
                onClick={() => editing.open(excludeForm)}
              />
            )
          }
        />
      </div>
      {editing.modals(context)}
    </Stack>
  );
}

// ---------------------------------------------------------------- Extra

function ExtraSpecs({ canEdit, context }: SubProps) {
  const list = useQuery({
    queryKey: bonusKeys.spec('extra'),
    queryFn: () => call(bonusEndpoints.getExtraBonusIsoList),
  });
  const editing = useSpecEditing();
  const today = localToday();
  const form = (row: ExtraBonusSpec | null): SpecFormConfig<unknown> => ({
    title: row ? `Edit extra bonus · ${row.iso_name}` : 'Add extra bonus',
    fields: [
      ...ISO_FIELDS,
      { name: 'extra_deals', label: 'Number of Deals', kind: 'number' },
      { name: 'extra_amount', label: 'Extra Bonus', kind: 'money' },
      {
        name: 'extra_type',
        label: 'Bonus Type',
        kind: { choice: EXTRA_BONUS_TYPES.map((t) => ({ value: t, label: EXTRA_BONUS_TYPE_LABELS[t] })) },
      },
      { name: 'enabled', label: 'Enabled', kind: 'flag' },
      { name: 'start_date', label: 'Start Date', kind: 'date' },
      { name: 'end_date', label: 'End Date', kind: 'date' },
    ],
    initial: {
      iso_name: row?.iso_name ?? null,
      group_id: row?.group_id ?? '',
      extra_deals: String(row?.extra_deals ?? BONUS_DEFAULTS.extraDeals),
      extra_amount: amountText(row?.extra_amount ?? String(BONUS_DEFAULTS.extraAmount)),
      extra_type: row?.bonus_type ?? BONUS_DEFAULTS.extraType,
      enabled: row?.enabled ?? BONUS_DEFAULTS.extraEnabled,
      start_date: row?.start_date ?? `${today.slice(0, 7)}-01`,
      end_date: row?.end_date ?? `${today.slice(0, 4)}-12-31`,
    },
    schema: needingGroups(addExtraBonusIsoBody),
    toBody: (v) => ({
      group_id: str(v.group_id),
      extra_deals: str(v.extra_deals),
      extra_amount: str(v.extra_amount),
      extra_type: str(v.extra_type),
      start_date: str(v.start_date),
      end_date: str(v.end_date),
      enabled: v.enabled === true,
      edit: row ? row.group_id : false,
      iso_name: isoOf(v),
    }),
    submit: (b) => call(bonusEndpoints.addExtraBonusIso, b),
  });
  const columns: Column<ExtraBonusSpec>[] = [
    { key: 'iso_name', header: 'ISO', render: (r) => r.iso_name },
    { key: 'group_id', header: 'Group ID', render: (r) => groupsCell(r.group_id) },
    {
      key: 'extra_deals',
      header: 'Number of Deals',
      render: (r) => formatCount(r.extra_deals),
      align: 'right',
    },
    { key: 'extra_amount', header: 'Extra Bonus', render: (r) => moneyCell(r.extra_amount), align: 'right' },
    {
      key: 'bonus_type',
      header: 'Bonus Type',
      render: (r) => EXTRA_BONUS_TYPE_LABELS[r.bonus_type],
      nowrap: true,
    },
    { key: 'start_date', header: 'Start Date', render: (r) => r.start_date, nowrap: true },
    { key: 'end_date', header: 'End Date', render: (r) => r.end_date, nowrap: true },
    { key: 'enabled', header: 'Enabled', align: 'center', render: (r) => yes(r.enabled) },
  ];
  return (
    <>
      {context.windows && (
        <Banner>
          Next extra bonus run: {context.windows.nextExtraRun} (the day after the month ends), for the deals
          opened that month.
        </Banner>
      )}
      <ListTable<ExtraBonusSpec>
        label="Extra bonus specifications"
        noun="specifications"
        columns={columns}
        rows={list.data}
        loading={list.isFetching}
        error={loadError(list.error, 'The extra bonus specifications')}
        empty={{
          title: 'No extra bonuses',
          description: 'No ISO earns an extra bonus for volume of deals yet.',
        }}
        rowKey={(r) => r.id}
        rowLabel={(r) => r.iso_name}
        rowActions={editActions<ExtraBonusSpec>(
          canEdit,
          (r) => editing.open(form(r)),
          (r) =>
            editing.askDelete(
              `Are you sure? The extra bonus of ${r.iso_name} (${r.group_id}) will be deleted.`,
              () => call(bonusEndpoints.deleteExtraBonusIso, { group_id: r.group_id }),
            ),
        )}
        actions={canEdit && <AddButton label="Add extra bonus" onClick={() => editing.open(form(null))} />}
      />
      {editing.modals(context)}
    </>
  );
}

// ---------------------------------------------------------------- Clawback

function ClawbackSpecs({ canEdit, context }: SubProps) {
  const list = useQuery({
    queryKey: bonusKeys.spec('clawback'),
    queryFn: () => call(bonusEndpoints.getClawbackList),
  });
  const editing = useSpecEditing();
  const first = list.data?.[0];
  const isDefaultRow = (r: ClawbackSpec) => first !== undefined && r.id === first.id;
  const form = (row: ClawbackSpec | null): SpecFormConfig<unknown> => {
    const isDefault = row !== null && isDefaultRow(row);
    return {
      title: row ? `Edit clawback · ${row.iso_name ?? 'Default'}` : 'Add clawback',
      fields: [
        { ...ISO_FIELDS[0], disabled: () => isDefault },
        { ...ISO_FIELDS[1], disabled: () => isDefault },
        { name: 'closure_days', label: 'Days for Closure', kind: 'number' },
        { name: 'volume_days', label: 'Days for Volume', kind: 'number' },
        { name: 'volume_threshold', label: 'Volume Threshold', kind: 'money' },
        { name: 'monthly_volume_threshold', label: 'Monthly Volume Threshold', kind: 'money' },
        {
          name: 'non_processing',
          label: 'Non-Processing',
          kind: 'flag',
          description: 'Claw back when it never processed',
        },
      ],
      initial: {
        iso_name: row?.iso_name ?? null,
        group_id: row?.group_id ?? '',
        closure_days: String(row?.closure_days ?? BONUS_DEFAULTS.closureDays),
        volume_days: String(row?.volume_days ?? BONUS_DEFAULTS.volumeDays),
        volume_threshold: amountText(row?.volume_threshold ?? String(BONUS_DEFAULTS.volumeThreshold)),
        monthly_volume_threshold: amountText(row?.monthly_volume_threshold ?? '0'),
        non_processing: row?.non_processing ?? BONUS_DEFAULTS.nonProcessing,
      },
      schema: isDefault ? addClawbackBody : needingGroups(addClawbackBody),
      toBody: (v) => ({
        group_id: str(v.group_id),
        closure_days: str(v.closure_days),
        volume_days: str(v.volume_days),
        volume_threshold: str(v.volume_threshold),
        edit: row ? row.group_id : false,
        iso_name: isoOf(v),
        non_processing: v.non_processing === true,
        monthly_volume_threshold: str(v.monthly_volume_threshold),
      }),
      submit: (b) => call(bonusEndpoints.addClawback, b),
    };
  };
  const columns: Column<ClawbackSpec>[] = [
    { key: 'iso_name', header: 'ISO', render: (r) => isoCell(r.iso_name) },
    { key: 'group_id', header: 'Group ID', render: (r) => groupsCell(r.group_id) },
    {
      key: 'closure_days',
      header: 'Days for Closure',
      render: (r) => formatCount(r.closure_days),
      align: 'right',
    },
    {
      key: 'volume_days',
      header: 'Days for Volume',
      render: (r) => formatCount(r.volume_days),
      align: 'right',
    },
    {
      key: 'volume_threshold',
      header: 'Volume Threshold',
      render: (r) => moneyCell(r.volume_threshold),
      align: 'right',
    },
    {
      key: 'non_processing',
      header: 'Non-Processing',
      align: 'center',
      render: (r) => yes(r.non_processing),
    },
    {
      key: 'monthly_volume_threshold',
      header: 'Monthly Volume Threshold',
      render: (r) => moneyCell(r.monthly_volume_threshold),
      align: 'right',
    },
  ];
  return (
    <>
      {context.windows && (
        <Banner>
          Next clawback run: {context.windows.nextClawbackRun}. The first row is the default for every ISO
          without its own row; it can be edited but not deleted.
        </Banner>
      )}
      <ListTable<ClawbackSpec>
        label="Clawback specifications"
        noun="specifications"
        columns={columns}
        rows={list.data}
        loading={list.isFetching}
        error={loadError(list.error, 'The clawback specifications')}
        empty={{ title: 'No clawback specifications', description: 'The default row is missing.' }}
        rowKey={(r) => r.id}
        rowLabel={(r) => r.iso_name ?? 'the default'}
        rowActions={editActions<ClawbackSpec>(
          canEdit,
          (r) => editing.open(form(r)),
          (r) =>
            editing.askDelete(
              `Are you sure? The clawback rule of ${r.iso_name} (${r.group_id}) will be deleted.`,
              () => call(bonusEndpoints.deleteClawback, { group_id: r.group_id }),
            ),
          isDefaultRow,
        )}
        actions={canEdit && <AddButton label="Add clawback" onClick={() => editing.open(form(null))} />}
      />
      {editing.modals(context)}
    </>
  );
}

// ---------------------------------------------------------------- Activation

function ActivationSpecs({ canEdit, context }: SubProps) {
  const list = useQuery({
    queryKey: bonusKeys.spec('activation'),
    queryFn: () => call(bonusEndpoints.getActivationList),
  });
  const editing = useSpecEditing();
  const form = (row: ActivationSpec | null): SpecFormConfig<unknown> => ({
    title: row ? `Edit activation · ${row.iso_name ?? 'Default'}` : 'Add activation',
    fields: [
      ...ISO_FIELDS,
      { name: 'volume_days', label: 'Days for Volume', kind: 'number' },
      { name: 'volume_threshold', label: 'Volume Threshold', kind: 'money' },
    ],
    initial: {
      iso_name: row?.iso_name ?? null,
      group_id: row?.group_id ?? '',
      volume_days: String(row?.volume_days ?? BONUS_DEFAULTS.volumeDays),
      volume_threshold: amountText(row?.volume_threshold ?? String(BONUS_DEFAULTS.volumeThreshold)),
    },
    schema: needingGroups(addActivationBody),
    toBody: (v) => ({
      group_id: str(v.group_id),
      volume_days: str(v.volume_days),
      volume_threshold: str(v.volume_threshold),
      edit: row ? row.group_id : false,
      iso_name: isoOf(v),
    }),
    submit: (b) => call(bonusEndpoints.addActivation, b),
  });
  const columns: Column<ActivationSpec>[] = [
    { key: 'iso_name', header: 'ISO', render: (r) => isoCell(r.iso_name) },
    { key: 'group_id', header: 'Group ID', render: (r) => groupsCell(r.group_id) },
    {
      key: 'volume_days',
      header: 'Days for Volume',
      render: (r) => formatCount(r.volume_days),
      align: 'right',
    },
    {
      key: 'volume_threshold',
      header: 'Volume Threshold',
      render: (r) => moneyCell(r.volume_threshold),
      align: 'right',
    },
  ];
  return (
    <>
      <Banner>
        A merchant paid on activation is activated once it processes the volume threshold within the days for
        volume. ISOs without a row here use {BONUS_DEFAULTS.volumeDays} days and $
        {BONUS_DEFAULTS.volumeThreshold}.
      </Banner>
      <ListTable<ActivationSpec>
        label="Activation specifications"
        noun="specifications"
        columns={columns}
        rows={list.data}
        loading={list.isFetching}
        error={loadError(list.error, 'The activation specifications')}
        empty={{ title: 'No activation specifications', description: 'Every ISO uses the defaults.' }}
        rowKey={(r) => r.id}
        rowLabel={(r) => r.iso_name ?? 'the default'}
        rowActions={editActions<ActivationSpec>(
          canEdit,
          (r) => editing.open(form(r)),
          (r) =>
            editing.askDelete(
              `Are you sure? The activation rule of ${r.iso_name} (${r.group_id}) will be deleted.`,
              () => call(bonusEndpoints.deleteActivation, { group_id: r.group_id }),
            ),
        )}
        actions={canEdit && <AddButton label="Add activation" onClick={() => editing.open(form(null))} />}
      />
      {editing.modals(context)}
    </>
  );
}

// ---------------------------------------------------------------- Equipment

function EquipmentSpecs({ canEdit, context }: SubProps) {
  const general = useQuery({
    queryKey: bonusKeys.spec('equipment'),
    queryFn: () => call(bonusEndpoints.getBonusEquipmentList),
  });
  const exclusive = useQuery({
    queryKey: bonusKeys.spec('exclusiveEquipment'),
    queryFn: () => call(bonusEndpoints.getExclusiveBonusEquipmentList),
  });
  const editing = useSpecEditing();
  const equipmentFields = [
    { name: 'title', label: 'Name', kind: 'text' },
    { name: 'model', label: 'Model', kind: 'model', description: 'As merchants carry it' },
    { name: 'amount', label: 'Amount', kind: 'money' },
  ] as const;
  const generalForm = (row: Equipment | null): SpecFormConfig<unknown> => ({
    title: row ? `Edit equipment · ${row.title}` : 'Add equipment',
    fields: equipmentFields,
    initial: { title: row?.title ?? '', model: row?.model ?? '', amount: amountText(row?.amount ?? '') },
    schema: addBonusEquipmentBody,
    toBody: (v) => ({
      title: str(v.title),
      model: str(v.model),
      amount: str(v.amount),
      edit: row ? row.title : false,
    }),
    submit: (b) => call(bonusEndpoints.addBonusEquipment, b),
  });
  const exclusiveForm = (row: ExclusiveEquipment | null): SpecFormConfig<unknown> => ({
    title: row ? `Edit exclusive equipment · ${row.iso_name}` : 'Add exclusive equipment',
    fields: [...ISO_FIELDS, ...equipmentFields],
    initial: {
      iso_name: row?.iso_name ?? null,
      group_id: row?.group_id ?? '',
      title: row?.title ?? '',
      model: row?.model ?? '',
      amount: amountText(row?.amount ?? ''),
    },
    schema: needingGroups(addExclusiveEquipmentBody),
    toBody: (v) => ({
      group_id: str(v.group_id),
      title: str(v.title),
      model: str(v.model),
      amount: str(v.amount),
      edit: row ? row.group_id : false,
      iso_name: isoOf(v),
    }),
    submit: (b) => call(bonusEndpoints.addExclusiveEquipment, b),
  });
  const generalColumns: Column<Equipment>[] = [
    { key: 'title', header: 'Name', render: (r) => r.title },
    { key: 'model', header: 'Model', render: (r) => r.model },
    { key: 'amount', header: 'Amount', render: (r) => moneyCell(r.amount), align: 'right' },
  ];
  const exclusiveColumns: Column<ExclusiveEquipment>[] = [
    { key: 'iso_name', header: 'ISO', render: (r) => r.iso_name },
    { key: 'group_id', header: 'Group ID', render: (r) => groupsCell(r.group_id) },
    ...(generalColumns as unknown as Column<ExclusiveEquipment>[]),
  ];
  return (
    <Stack gap="md">
      <Banner>
        A merchant’s bonus adds the amount of its equipment model. An ISO’s exclusive amount replaces the
        general one for the same model.
      </Banner>
      <div>
        <ListTable<Equipment>
          heading={
            <Title order={3} fz="md">
              Equipments
            </Title>
          }
          label="Equipments"
          noun="equipments"
          columns={generalColumns}
          rows={general.data}
          loading={general.isFetching}
          error={loadError(general.error, 'The equipment amounts')}
          empty={{ title: 'No equipment amounts', description: 'No equipment adds to a bonus yet.' }}
          rowKey={(r) => r.id}
          rowLabel={(r) => r.title}
          rowActions={editActions<Equipment>(
            canEdit,
            (r) => editing.open(generalForm(r)),
            (r) =>
              editing.askDelete(`Are you sure? The amount for ${r.title} (${r.model}) will be deleted.`, () =>
                call(bonusEndpoints.deleteBonusEquipment, { title: r.title }),
              ),
          )}
          actions={
            canEdit && <AddButton label="Add equipment" onClick={() => editing.open(generalForm(null))} />
          }
        />
      </div>
      <div>
        <ListTable<ExclusiveEquipment>
          heading={
            <Title order={3} fz="md">
              Exclusive Equipments
            </Title>
          }
          label="Exclusive equipments"
          noun="equipments"
          columns={exclusiveColumns}
          rows={exclusive.data}
          loading={exclusive.isFetching}
          error={loadError(exclusive.error, 'The exclusive equipment amounts')}
          empty={{
            title: 'No exclusive equipment amounts',
            description: 'Every ISO gets the general amounts.',
          }}
          rowKey={(r) => r.id}
          rowLabel={(r) => `${r.iso_name} ${r.title}`}
          rowActions={editActions<ExclusiveEquipment>(
            canEdit,
            (r) => editing.open(exclusiveForm(r)),
            (r) =>
              editing.askDelete(
                `Are you sure? ${r.iso_name}’s amount for ${r.title} (${r.group_id}) will be deleted.`,
                () => call(bonusEndpoints.deleteExclusiveEquipment, { group_id: r.group_id }),
              ),
          )}
          actions={
            canEdit && (
              <AddButton label="Add exclusive equipment" onClick={() => editing.open(exclusiveForm(null))} />
            )
          }
        />
      </div>
      {editing.modals(context)}
    </Stack>
  );
}
