import type { NewPartner } from '../schema';

/**
 * Demo ISOs. A fixed list so that every run gives the same partners; the merchant-data issue extends the
 * generator with the long tail of ISOs and their merchants.
 */
const ISOS: Array<[name: string, city: string, state: string, rm: string, isc: string, inHouse?: boolean]> = [
  ['Summit Payment Group', 'Denver', 'CO', 'Dana Whitfield', '0.8000'],
  ['Harborline Merchant Services', 'Tampa', 'FL', 'Marcus Ortega', '0.7500'],
  ['Keystone Card Solutions', 'Philadelphia', 'PA', 'Dana Whitfield', '0.8000'],
  ['Lone Star Processing', 'Austin', 'TX', 'Priya Raman', '0.7000'],
  ['Pacific Crest Payments', 'San Diego', 'CA', 'Marcus Ortega', '0.8500'],
  ['Great Lakes Merchant Partners', 'Chicago', 'IL', 'Priya Raman', '0.7500'],
  ['Blue Ridge Bankcard', 'Asheville', 'NC', 'Dana Whitfield', '0.6500'],
  ['Desert Sun Payments', 'Phoenix', 'AZ', 'Marcus Ortega', '0.8000'],
  ['Empire State Card Services', 'Albany', 'NY', 'Priya Raman', '0.7000'],
  ['Magnolia Merchant Solutions', 'Jackson', 'MS', 'Dana Whitfield', '0.6000'],
  ['PayDesk Direct', 'Irvine', 'CA', 'Priya Raman', '1.0000', true],
  ['PayDesk Agent Network', 'Irvine', 'CA', 'Marcus Ortega', '1.0000', true],
];

export function demoPartners(): NewPartner[] {
  return ISOS.map(([name, city, state, rm, isc, inHouse], i) => ({
    account_id: `001DEMO${String(i + 1).padStart(8, '0')}`,
    account_name: name,
    status: i % 9 === 8 ? 'Inactive' : 'Active',
    rm,
    recruiter: i % 2 === 0 ? 'Alicia Brennan' : 'Tom Kessler',
    isc,
    liability: i % 3 === 0 ? 'Liable' : 'Not Liable',
    date_signed: `${2016 + (i % 7)}-${String((i % 12) + 1).padStart(2, '0')}-15`,
    full_name: `${['Jordan', 'Casey', 'Morgan', 'Riley', 'Avery', 'Quinn'][i % 6]} ${['Hale', 'Parker', 'Nguyen', 'Brooks', 'Ramirez', 'Foster'][(i * 5) % 6]}`,
    processing_email: `processing@${slug(name)}.example`,
    phone: `(555) ${String(200 + i * 37).padStart(3, '0')}-${String(1000 + i * 731).slice(-4)}`,
    billing_street: `${100 + i * 17} Commerce Way`,
    billing_city: city,
    billing_state: state,
    billing_zip: String(10000 + i * 7919).slice(0, 5),
    operation_email: `ops@${slug(name)}.example`,
    in_house: inHouse ?? false,
  }));
}

function slug(name: string) {
  return name.toLowerCase().replace(/[^a-z]+/g, '');
}
