import { Tabs } from '@mantine/core';
import { hasPermission, PCI_EXPORT_FILES, pciEndpoints, pciMerchantsTable } from '@paydesk/domain';
import { useSearchParams } from 'react-router';
import { useSessionUser } from '../../app/session';
import { PageHeader } from '../../components/PageHeader';
import { BillingTab, CommissionsTab } from './BillingTab';
import { ConfigTab } from './ConfigTab';
import { OldMerchantsTab } from './OldMerchantsTab';
import { PciTable } from './PciTable';

/** `restricted`: the spec's two restricted tabs, shown to holders of pci_restricted (the server checks too). */
const TABS = [
  { value: 'merchants', label: 'Merchants', restricted: false },
  { value: 'billing', label: 'Billing', restricted: false },
  { value: 'commissions', label: 'Commissions', restricted: false },
  { value: 'oldmerchants', label: 'Old Merchants', restricted: true },
  { value: 'config', label: 'Config', restricted: true },
] as const;
type Tab = (typeof TABS)[number]['value'];

/** What the address keeps when the tab changes: the billing month, shared by Billing and Commissions. */
const KEPT_PARAMS = ['year', 'month'];

/**
 * PCI Compliance (spec document 3 §2.2): the merchants in the PCI program, each month's billing and its ACH
 * debit file, the ISOs' commissions, the closed (old) merchants and the fee and billing-type configuration.
 * The tab is kept in the URL (?tab=billing). Partner staff see their ISO's merchants and commissions only (the
 * server scopes the rows).
 */
export default function PciScreen() {
  const user = useSessionUser();
  const restricted = hasPermission(user, 'pci_restricted');
  const [params, setParams] = useSearchParams();
  const tabs = TABS.filter((t) => restricted || !t.restricted);
  const tab: Tab = tabs.find((t) => t.value === params.get('tab'))?.value ?? 'merchants';

  const chooseTab = (value: string | null) => {
    if (!value) return;
    const next = new URLSearchParams();
    for (const key of KEPT_PARAMS) {
      const kept = params.get(key);
      if (kept !== null) next.set(key, kept);
    }
    if (value !== 'merchants') next.set('tab', value);
    setParams(next);
  };

  return (
    <>
      <PageHeader
        title="PCI Compliance"
        description={
          user.iso
            ? `${user.iso.name}: your merchants' PCI compliance, their monthly PCI billing and your commissions on it.`
            : 'Merchants in the PCI program, the monthly billing by ACH debit, the ISOs’ commissions, and the fees and billing types that decide them.'
        }
      />
      <Tabs value={tab} onChange={chooseTab} keepMounted={false}>
        <Tabs.List mb="md">
          {tabs.map((t) => (
            <Tabs.Tab key={t.value} value={t.value}>
              {t.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="merchants">
          <PciTable
            report="pci_merchants"
            def={pciMerchantsTable}
            endpoints={pciEndpoints.merchantsTable}
            extra={{}}
            label="PCI merchants"
            noun="merchants"
            searchPlaceholder="Search MID or DBA"
            empty={{
              filtered: 'No merchants match these filters',
              unfiltered: 'No merchants in the PCI program',
              unfilteredHint:
                'Merchants appear here once their accounts are open and enrolled in PCI billing.',
            }}
            exportFile={PCI_EXPORT_FILES.merchants}
          />
        </Tabs.Panel>
        <Tabs.Panel value="billing">
          <BillingTab />
        </Tabs.Panel>
        <Tabs.Panel value="commissions">
          <CommissionsTab />
        </Tabs.Panel>
        {restricted && (
          <>
            <Tabs.Panel value="oldmerchants">
              <OldMerchantsTab />
            </Tabs.Panel>
            <Tabs.Panel value="config">
              <ConfigTab />
            </Tabs.Panel>
          </>
        )}
      </Tabs>
    </>
  );
}
