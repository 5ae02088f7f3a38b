import { addActivationBody } from '@paydesk/domain';
import { describe, expect, it } from 'vitest';
import { fieldErrors } from '../../components/forms/zodForm';
import { amountText, groupIdsOf, isoNames, needingGroups } from './specValues';

const isos = [
  { iso_name: 'Summit Payments', group_id: 'G100, G101' },
  { iso_name: 'Acme ISO', group_id: 'A1' },
  { iso_name: 'Summit Payments', group_id: 'G101,G102' },
];

describe('the specification forms’ values', () => {
  it('lists each ISO once, by name', () => {
    expect(isoNames(isos)).toEqual(['Acme ISO', 'Summit Payments']);
    expect(isoNames(undefined)).toEqual([]);
  });

  it('fills an ISO’s group IDs, normalized and each once', () => {
    expect(groupIdsOf(isos, 'Summit Payments')).toBe('G100, G101, G102');
    expect(groupIdsOf(isos, 'Nobody')).toBe('');
  });

  it('shows whole amounts without cents', () => {
    expect(amountText('250.00')).toBe('250');
    expect(amountText('12.50')).toBe('12.50');
    expect(amountText(null)).toBe('');
  });
});

describe('a specification needs group IDs once an ISO is chosen or a row is edited (spec §5)', () => {
  const schema = needingGroups(addActivationBody);
  const body = { volume_days: '30', volume_threshold: '250', edit: false as string | false };

  it('lets the default spec (no ISO) go without group IDs', () => {
    expect(fieldErrors(schema, { ...body, group_id: '', iso_name: null })).toEqual({});
  });

  it('asks for a group ID after an ISO is chosen, and when editing', () => {
    expect(fieldErrors(schema, { ...body, group_id: ' , ', iso_name: 'Acme ISO' })).toEqual({
      group_id: 'Enter at least one group ID',
    });
    expect(fieldErrors(schema, { ...body, group_id: '', iso_name: null, edit: 'A1' }).group_id).toBe(
      'Enter at least one group ID',
    );
    expect(fieldErrors(schema, { ...body, group_id: 'A1', iso_name: 'Acme ISO' })).toEqual({});
  });

  it('keeps the domain schema’s own messages', () => {
    expect(fieldErrors(schema, { ...body, volume_days: '-1', group_id: 'A1', iso_name: 'Acme ISO' })).toEqual(
      {
        volume_days: 'Days for volume cannot be negative',
      },
    );
  });
});
