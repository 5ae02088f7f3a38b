import {
  Alert,
  Button,
  Card,
  Collapse,
  Grid,
  Group,
  Radio,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
} from '@mantine/core';
import {
  CALCULATOR_DEFAULTS,
  type CalculatorBank,
  type CalculatorInputs,
  type CalculatorProfile,
  decimalsOf,
  FIRST_DATA_TERMS,
  formatMoney,
  PPS_TERMS,
  parseMoney,
  withBank,
  withProfile,
} from '@paydesk/domain';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { PageHeader } from '../../components/PageHeader';
import {
  evaluate,
  GENERAL_FIELDS,
  HOUSE,
  HOUSE_REMAINDER,
  initialTexts,
  LIABILITY_FIELDS,
  MERCHANT_GROUPS,
  merchantEntered,
  type NumericField,
  OTHER_PROCESSOR_FIELDS,
  type Texts,
  type View,
  WORKED_EXAMPLE,
} from './calculatorModel';
import {
  Breakdown,
  FieldRun,
  FixedField,
  NotOffered,
  NumberField,
  Section,
  TermsList,
  Totals,
} from './parts';

const dollars = (n: number) => formatMoney(parseMoney(n), { currency: true });
const bps = (n: number) => `${n.toFixed(1)} bps`;

const FIRST_DATA_LIST = [
  { label: 'Program fee, merchant', value: dollars(FIRST_DATA_TERMS.programMerchant) },
  { label: 'Program fee, ISO', value: dollars(FIRST_DATA_TERMS.programIso) },
  { label: 'Non-compliance, merchant', value: dollars(FIRST_DATA_TERMS.nonComplianceMerchant) },
  { label: 'Non-compliance, ISO', value: dollars(FIRST_DATA_TERMS.nonComplianceIso) },
  { label: 'Buypass statement', value: dollars(FIRST_DATA_TERMS.buypassStatement) },
  { label: 'Buypass pre-auth', value: dollars(FIRST_DATA_TERMS.buypassPreAuth) },
  { label: 'Buypass full download', value: dollars(FIRST_DATA_TERMS.buypassFullDownload) },
  { label: 'Buypass partial download', value: dollars(FIRST_DATA_TERMS.buypassPartialDownload) },
  { label: 'Buypass table download', value: dollars(FIRST_DATA_TERMS.buypassTable) },
  { label: 'Amex sponsor cost', value: bps(FIRST_DATA_TERMS.amexSponsorBps) },
];

const PPS_LIST = [
  { label: 'Program fee, merchant', value: dollars(PPS_TERMS.programMerchant) },
  { label: 'Program fee, ISO', value: dollars(PPS_TERMS.programIso) },
  { label: 'Non-compliance, merchant', value: dollars(PPS_TERMS.nonComplianceMerchant) },
  { label: 'Non-compliance, ISO', value: dollars(PPS_TERMS.nonComplianceIso) },
  { label: 'Missing originals, per day', value: dollars(PPS_TERMS.missingOriginalsPerDay) },
  { label: 'Help desk', value: dollars(PPS_TERMS.helpDesk) },
  { label: 'After hours', value: dollars(PPS_TERMS.afterHours) },
  { label: 'Amex', value: bps(PPS_TERMS.amexBps) },
  { label: 'PayLo program', value: dollars(PPS_TERMS.payloProgram) },
  { label: 'Settlement', value: dollars(PPS_TERMS.settlement) },
  { label: 'BIN', value: bps(PPS_TERMS.binBps) },
];

const BANKS: readonly CalculatorBank[] = ['CBCAL', 'ESQUIRE'];
const PROFILES: readonly CalculatorProfile[] = ['PAYLO', 'TRADITIONAL', 'HIGHRISK'];

/** Spec document 1 §2 "Sales calculator": a merchant's month priced on TSYS, split between the ISO and PayDesk. */
export default function SalesCalculatorScreen() {
  const [choices, setChoices] = useState<CalculatorInputs>(CALCULATOR_DEFAULTS);
  const [texts, setTexts] = useState<Texts>(initialTexts);
  const [view, setView] = useState<View>('iso');
  const [detailsOpen, setDetailsOpen] = useState(true);
  const [otherTermsOpen, setOtherTermsOpen] = useState(false);

  const { inputs, result, errors } = useMemo(() => evaluate(choices, texts), [choices, texts]);
  const errorCount = Object.keys(errors).length;
  const onText = (field: NumericField, text: string) => setTexts((t) => ({ ...t, [field]: text }));
  const field = (spec: (typeof GENERAL_FIELDS)[number], disabled?: boolean) => (
    <NumberField
      key={spec.field}
      spec={spec}
      value={texts[spec.field] ?? ''}
      error={errors[spec.field]}
      onChange={onText}
      disabled={disabled}
    />
  );
  const reset = () => {
    setChoices(CALCULATOR_DEFAULTS);
    setTexts(initialTexts());
  };
  const ndfText = choices.bank === 'CBCAL' ? choices.ndfValue.toFixed(2) : choices.ndfValue.toFixed(1);

  return (
    <>
      <PageHeader
        title="Sales Calculator"
        description={`A merchant’s month priced on TSYS: what it earns and how it splits between the ISO and ${HOUSE}.`}
        actions={
          <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={reset}>
            Start over
          </Button>
        }
      />

      <Card withBorder radius="md" padding="md" mb="md" component="section" aria-label="Totals">
        <Group justify="space-between" mb="sm" align="center">
          <Radio.Group
            value={view}
            onChange={(v) => setView(v as View)}
            label="Show the share of"
            aria-label="View"
          >
            <Group gap="lg" mt={4}>
              <Radio value="iso" label="ISO share" />
              <Radio value="house" label={HOUSE_REMAINDER} />
            </Group>
          </Radio.Group>
          {errorCount > 0 && (
            <Alert
              variant="light"
              color="orange"
              icon={<IconAlertTriangle size={16} />}
              py={6}
              data-testid="calculator-errors"
            >
              {errorCount === 1 ? '1 field' : `${errorCount} fields`} can’t be read and count as 0 until
              fixed.
            </Alert>
          )}
        </Group>
        <Totals
          result={result}
          view={view}
          isc={inputs.isc}
          empty={!merchantEntered(texts)}
          onExample={() => {
            setChoices((c) => WORKED_EXAMPLE.choices(c));
            setTexts((t) => ({ ...t, ...WORKED_EXAMPLE.texts }));
          }}
        />
      </Card>

      <Grid gap="md" align="flex-start">
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <Stack gap="md">
            <Section
              title="Merchant Details"
              subtitle="The merchant’s month. Blank counts as 0."
              collapsible
              opened={detailsOpen}
              onToggle={() => setDetailsOpen((o) => !o)}
            >
              {MERCHANT_GROUPS.map((group) => (
                <FieldRun key={group.title} title={group.title}>
                  {group.fields.map((spec) => field(spec))}
                  {group.title === 'Interchange and card brand' && (
                    <FixedField
                      label="V/MC/Discover interchange"
                      value="Pass-Thru"
                      hint="Passed through at cost"
                    />
                  )}
                </FieldRun>
              ))}
              <FieldRun title="First Data and PPS only">
                {OTHER_PROCESSOR_FIELDS.map((spec) => field(spec, true))}
              </FieldRun>
            </Section>

            <Section title="General" subtitle={`${HOUSE}’s pricing to the ISO (Schedule A) and the split.`}>
              <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm" verticalSpacing="xs">
                {GENERAL_FIELDS.map((spec) =>
                  spec.field === 'liability' ? field(spec, inputs.liable) : field(spec),
                )}
                <FixedField
                  label="Micros fee"
                  value={CALCULATOR_DEFAULTS.micros.toFixed(decimalsOf('micros'))}
                  hint="Per Micros transaction (fixed)"
                  unit="money"
                />
              </SimpleGrid>
            </Section>
          </Stack>
        </Grid.Col>

        <Grid.Col span={{ base: 12, lg: 5 }}>
          <Stack gap="md">
            <Section title="Processor" subtitle="The processor’s terms and the account’s choices.">
              <Tabs value="TSYS">
                <Tabs.List mb="sm">
                  <Tabs.Tab value="TSYS">TSYS</Tabs.Tab>
                  <Tabs.Tab value="FIRSTDATA" disabled>
                    First Data
                  </Tabs.Tab>
                  <Tabs.Tab value="PPS" disabled>
                    PPS
                  </Tabs.Tab>
                </Tabs.List>
                <Tabs.Panel value="TSYS">
                  <Stack gap="sm">
                    <Radio.Group
                      label="Bank"
                      value={choices.bank}
                      onChange={(v) => setChoices((c) => withBank(c, v as CalculatorBank))}
                    >
                      <Group gap="lg" mt={4}>
                        {BANKS.map((b) => (
                          <Radio key={b} value={b} label={b} />
                        ))}
                      </Group>
                    </Radio.Group>
                    <Radio.Group
                      label="Profile"
                      value={choices.profile}
                      onChange={(v) => setChoices((c) => withProfile(c, v as CalculatorProfile))}
                    >
                      <Group gap="lg" mt={4}>
                        {PROFILES.map((p) => (
                          <Radio key={p} value={p} label={p} disabled={p === 'HIGHRISK'} />
                        ))}
                      </Group>
                    </Radio.Group>
                    <Stack gap={4}>
                      <Text fz="sm" fw={500}>
                        PCI fees, a month
                      </Text>
                      <SimpleGrid cols={2} spacing="sm" verticalSpacing="xs">
                        <FixedField
                          label="Program, merchant"
                          value={choices.programMerchant.toFixed(2)}
                          unit="money"
                        />
                        <FixedField label="Program, ISO" value={choices.programIso.toFixed(2)} unit="money" />
                        <FixedField
                          label="Non-compliance, merchant"
                          value={choices.nonComplianceMerchant.toFixed(2)}
                          unit="money"
                        />
                        <FixedField
                          label="Non-compliance, ISO"
                          value={choices.nonComplianceIso.toFixed(2)}
                          unit="money"
                        />
                      </SimpleGrid>
                      <Text fz="xs" c="dimmed">
                        The profile sets the program fees; non-compliance counts per non-compliant account.
                      </Text>
                    </Stack>

                    <Stack gap={4}>
                      <Text fz="sm" fw={500}>
                        Liability
                      </Text>
                      <SegmentedControl
                        aria-label="Liability"
                        value={choices.liable ? 'liable' : 'not'}
                        onChange={(v) => setChoices((c) => ({ ...c, liable: v === 'liable' }))}
                        data={[
                          { value: 'not', label: 'Not Liable' },
                          { value: 'liable', label: 'Liable' },
                        ]}
                        fullWidth
                      />
                      <Text fz="xs" c="dimmed">
                        {choices.liable
                          ? 'The ISO pays a fee per risk item.'
                          : `${HOUSE} carries the risk for the liability basis points.`}
                      </Text>
                    </Stack>
                    <Collapse expanded={choices.liable}>
                      <SimpleGrid cols={2} spacing="sm" verticalSpacing="xs" data-testid="liability-fees">
                        {LIABILITY_FIELDS.map((spec) => field(spec))}
                      </SimpleGrid>
                    </Collapse>

                    <Stack gap={4}>
                      <Text fz="sm" fw={500}>
                        Next day funding
                      </Text>
                      <SegmentedControl
                        aria-label="Next day funding"
                        value={choices.nextDayFunding ? 'ndf' : 'none'}
                        onChange={(v) => setChoices((c) => ({ ...c, nextDayFunding: v === 'ndf' }))}
                        data={[
                          { value: 'none', label: 'No Next Day Funding' },
                          { value: 'ndf', label: 'Next Day Funding' },
                        ]}
                        fullWidth
                      />
                    </Stack>
                    <FixedField
                      label="Next-day funding"
                      value={ndfText}
                      unit={choices.bank === 'CBCAL' ? 'money' : 'bps'}
                      hint={
                        choices.bank === 'CBCAL'
                          ? `Flat a month on CBCAL${choices.nextDayFunding ? '' : ' (off)'}`
                          : `Of the next-day funded volume on ESQUIRE${choices.nextDayFunding ? '' : ' (off)'}`
                      }
                    />
                  </Stack>
                </Tabs.Panel>
              </Tabs>
              <Button
                variant="subtle"
                size="compact-xs"
                mt="sm"
                onClick={() => setOtherTermsOpen((o) => !o)}
                aria-expanded={otherTermsOpen}
              >
                {otherTermsOpen ? 'Hide' : 'Show'} First Data and PPS terms
              </Button>
              <Collapse expanded={otherTermsOpen}>
                <Stack gap="md" mt="xs">
                  <Stack gap={4}>
                    <Group gap={6}>
                      <Text fz="sm" fw={600}>
                        First Data
                      </Text>
                      <NotOffered />
                    </Group>
                    <TermsList terms={FIRST_DATA_LIST} />
                  </Stack>
                  <Stack gap={4}>
                    <Group gap={6}>
                      <Text fz="sm" fw={600}>
                        PPS
                      </Text>
                      <NotOffered />
                    </Group>
                    <TermsList terms={PPS_LIST} />
                  </Stack>
                </Stack>
              </Collapse>
            </Section>

            <Section title="How the total arises" subtitle="Each term of the month, in dollars.">
              <Breakdown result={result} isc={inputs.isc} />
            </Section>
          </Stack>
        </Grid.Col>
      </Grid>
    </>
  );
}
