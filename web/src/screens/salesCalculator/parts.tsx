import {
  Badge,
  Box,
  Button,
  Card,
  Collapse,
  Group,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { type CalculatorResult, type Fraction, formatMoney, type Money } from '@paydesk/domain';
import { IconChevronDown } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import {
  type FieldSpec,
  HOUSE,
  HOUSE_REMAINDER,
  type NumericField,
  type Unit,
  type View,
} from './calculatorModel';

const UNIT_SECTION: Record<Unit, { left?: string; right?: string }> = {
  money: { left: '$' },
  count: {},
  bps: { right: 'bps' },
  percent: { right: '%' },
};

/** A figure typed as free text; the screen parses it. */
export function NumberField({
  spec,
  value,
  error,
  onChange,
  disabled,
}: {
  spec: FieldSpec;
  value: string;
  error: string | undefined;
  onChange: (field: NumericField, text: string) => void;
  disabled?: boolean;
}) {
  const unit = UNIT_SECTION[spec.unit];
  return (
    <TextInput
      label={spec.label}
      description={spec.hint}
      value={value}
      error={error}
      disabled={disabled}
      placeholder="0"
      inputMode="decimal"
      autoComplete="off"
      onChange={(e) => onChange(spec.field, e.currentTarget.value)}
      leftSection={unit.left}
      leftSectionWidth={unit.left ? 28 : undefined}
      rightSection={unit.right}
      rightSectionWidth={unit.right ? 40 : undefined}
      rightSectionPointerEvents="none"
      styles={{
        input: { fontVariantNumeric: 'tabular-nums' },
        section: { color: 'var(--mantine-color-dimmed)' },
      }}
    />
  );
}

/** A fixed term: shown, never edited (spec §5), yet easy to read. */
export function FixedField({
  label,
  value,
  hint,
  unit,
}: {
  label: string;
  value: string;
  hint?: string;
  unit?: Unit;
}) {
  const u = unit ? UNIT_SECTION[unit] : {};
  return (
    <TextInput
      label={label}
      description={hint}
      value={value}
      disabled
      readOnly
      leftSection={u.left}
      leftSectionWidth={u.left ? 28 : undefined}
      rightSection={u.right}
      rightSectionWidth={u.right ? 40 : undefined}
      styles={{
        input: {
          opacity: 1,
          color: 'var(--mantine-color-gray-8)',
          backgroundColor: 'var(--mantine-color-gray-1)',
          fontVariantNumeric: 'tabular-nums',
        },
      }}
    />
  );
}

/** A titled card; with `collapsible` its header opens and closes the body. */
export function Section({
  title,
  subtitle,
  children,
  collapsible,
  opened = true,
  onToggle,
  actions,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  collapsible?: boolean;
  opened?: boolean;
  onToggle?: () => void;
  actions?: ReactNode;
}) {
  const heading = (
    <Stack gap={2}>
      <Title order={2} fz="md" fw={650}>
        {title}
      </Title>
      {subtitle && (
        <Text fz="xs" c="dimmed">
          {subtitle}
        </Text>
      )}
    </Stack>
  );
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-label={title}>
      <Group justify="space-between" wrap="nowrap" mb={opened ? 'sm' : 0}>
        {collapsible ? (
          <UnstyledButton onClick={onToggle} aria-expanded={opened} style={{ flex: 1 }}>
            <Group gap="xs" wrap="nowrap">
              <IconChevronDown
                size={18}
                style={{ transform: opened ? undefined : 'rotate(-90deg)', transition: 'transform 150ms' }}
              />
              {heading}
            </Group>
          </UnstyledButton>
        ) : (
          heading
        )}
        {actions}
      </Group>
      {collapsible ? <Collapse expanded={opened}>{children}</Collapse> : children}
    </Card>
  );
}

/** A labelled run of fields inside a section. */
export function FieldRun({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box mb="md">
      <Text fz="xs" fw={700} c="dimmed" tt="uppercase" mb={6} style={{ letterSpacing: 0.4 }}>
        {title}
      </Text>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm" verticalSpacing="xs">
        {children}
      </SimpleGrid>
    </Box>
  );
}

/** '-$8.39' rather than '$-8.39'. */
const money = (m: Money) => formatMoney(m, { currency: true });

/** The totals at the top: the chosen view's share big, and the whole split beside it. */
export function Totals({
  result,
  view,
  isc,
  empty,
  onExample,
}: {
  result: CalculatorResult;
  view: View;
  isc: number;
  /** No merchant figure typed yet: prompt for them instead of headlining the fees alone. */
  empty: boolean;
  onExample: () => void;
}) {
  const share = view === 'iso' ? 'iso' : 'house';
  const rows: Array<{ key: 'total' | 'iso' | 'house'; label: string }> = [
    { key: 'total', label: 'Total' },
    { key: 'iso', label: `ISO share (${isc}%)` },
    { key: 'house', label: `${HOUSE} (the remainder, ${100 - isc}%)` },
  ];
  const who = view === 'iso' ? 'ISO' : HOUSE;
  return (
    <Group align="flex-start" gap="xl" wrap="wrap" justify="space-between">
      {empty ? (
        <Stack gap={6} maw={520} data-testid="calculator-prompt">
          <Text fz="lg" fw={650}>
            Enter the merchant’s volume and income under Merchant Details
          </Text>
          <Text fz="sm" c="dimmed">
            Until then the totals count only {HOUSE}’s monthly fees, so they start below zero. Or start from a
            worked example of the pricing guide and change its figures.
          </Text>
          <Group>
            <Button variant="light" size="compact-sm" onClick={onExample}>
              Fill in worked example 1
            </Button>
          </Group>
        </Stack>
      ) : (
        <Group gap={40} align="flex-end">
          <ShareFigure
            testId="share-monthly"
            value={money(result.monthly[share])}
            caption={`${who} a month`}
          />
          <ShareFigure testId="share-yearly" value={money(result.yearly[share])} caption={`${who} a year`} />
        </Group>
      )}
      <Table
        w={{ base: '100%', md: 440 }}
        fz="sm"
        verticalSpacing={4}
        horizontalSpacing="sm"
        aria-label="Monthly and yearly totals"
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th />
            <Table.Th ta="right">Monthly</Table.Th>
            <Table.Th ta="right">Yearly</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => {
            const chosen = row.key === share;
            return (
              <Table.Tr
                key={row.key}
                bg={chosen ? 'indigo.0' : undefined}
                fw={row.key === 'total' || chosen ? 650 : 400}
              >
                <Table.Td>{row.label}</Table.Td>
                <Table.Td
                  ta="right"
                  data-testid={`monthly-${row.key}`}
                  style={{ fontVariantNumeric: 'tabular-nums' }}
                >
                  {formatMoney(result.monthly[row.key])}
                </Table.Td>
                <Table.Td
                  ta="right"
                  data-testid={`yearly-${row.key}`}
                  style={{ fontVariantNumeric: 'tabular-nums' }}
                >
                  {formatMoney(result.yearly[row.key])}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Group>
  );
}

/** How the monthly total arises, term by term (docs/calculator.md, The result). */
export function Breakdown({ result, isc }: { result: CalculatorResult; isc: number }) {
  const t = result.terms;
  const line = (label: string, dollars: Fraction, hint?: string, testId?: string) => ({
    label,
    cents: dollars.toMoney('half-up'),
    hint,
    testId,
  });
  const terms = [
    line('Interchange margin', t.interchangeMargin, 'income − expense'),
    line('Card brand margin', t.cardBrandMargin, 'income − expense'),
    line('Per-item costs', t.perItemCosts.negated(), 'authorizations, PIN, batches, EBT, voice, AVS, Micros'),
    line('Basis-point costs', t.basisPointCosts.negated(), 'BIN sponsorship on gross volume'),
    line('Fee terms', t.feeTerms, 'fees billed − monthly costs'),
    line('Liability', t.liability, 'per item when liable, else basis points'),
  ];
  const after = [
    line('Base (TSYS terms)', t.base, 'program fees and PCI non-compliance, to the ISO'),
    line('Next-day funding', t.nextDayFunding, 'to the ISO'),
  ];
  const row = (r: ReturnType<typeof line>, strong = false) => (
    <Table.Tr key={r.label} fw={strong ? 700 : 400}>
      <Table.Td>
        {r.label}
        {r.hint && (
          <Text fz="xs" c="dimmed" lh={1.2}>
            {r.hint}
          </Text>
        )}
      </Table.Td>
      <Table.Td
        ta="right"
        style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}
        data-testid={r.testId}
      >
        {formatMoney(r.cents)}
      </Table.Td>
    </Table.Tr>
  );
  return (
    <Table fz="sm" verticalSpacing={3} horizontalSpacing="xs" aria-label="How the total arises">
      <Table.Tbody>
        {terms.map((r) => row(r))}
        {row(line('Net income (N)', t.netIncome, undefined, 'term-net'), true)}
        {after.map((r) => row(r))}
        <Table.Tr fw={700} style={{ borderTop: '2px solid var(--mantine-color-gray-4)' }}>
          <Table.Td>Monthly total</Table.Td>
          <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
            {formatMoney(result.monthly.total)}
          </Table.Td>
        </Table.Tr>
        <Table.Tr>
          <Table.Td>
            ISO
            <Text fz="xs" c="dimmed" lh={1.2}>
              {isc}% of N + base + next-day funding
            </Text>
          </Table.Td>
          <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
            {formatMoney(result.monthly.iso)}
          </Table.Td>
        </Table.Tr>
        <Table.Tr>
          <Table.Td>
            {HOUSE_REMAINDER}
            <Text fz="xs" c="dimmed" lh={1.2}>
              what the ISO's share leaves: {100 - isc}% of N
            </Text>
          </Table.Td>
          <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
            {formatMoney(result.monthly.house)}
          </Table.Td>
        </Table.Tr>
      </Table.Tbody>
    </Table>
  );
}

/** A processor's terms as a read-only list. */
export function TermsList({ terms }: { terms: ReadonlyArray<{ label: string; value: string }> }) {
  return (
    <Table fz="xs" verticalSpacing={2} horizontalSpacing="xs">
      <Table.Tbody>
        {terms.map((t) => (
          <Table.Tr key={t.label}>
            <Table.Td c="dimmed">{t.label}</Table.Td>
            <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
              {t.value}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

export function NotOffered() {
  return (
    <Badge size="xs" variant="light" color="gray">
      not offered yet
    </Badge>
  );
}

/** One big figure of the chosen share with its caption. */
function ShareFigure({ value, caption, testId }: { value: string; caption: string; testId: string }) {
  return (
    <Stack gap={0}>
      <Text
        fz={34}
        fw={750}
        lh={1.1}
        c="indigo.7"
        data-testid={testId}
        style={{ fontVariantNumeric: 'tabular-nums' }}
      >
        {value}
      </Text>
      <Text fz="xs" c="dimmed" fw={600} tt="uppercase">
        {caption}
      </Text>
    </Stack>
  );
}
