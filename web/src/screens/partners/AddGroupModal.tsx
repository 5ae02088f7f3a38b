import { Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  type AddGroupIdBody,
  addGroupIdBody,
  GROUP_BANKS,
  GROUP_PROFILES,
  NEW_GROUP_PROCESSOR,
  partnerEndpoints,
} from '@paydesk/domain/contracts/partners';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { call, errorMessage } from '../../app/api';
import { partnerKeys } from '../../app/queryKeys';
import { FormAlert } from '../../components/FormAlert';
import { percentText } from './directory';

interface AddGroupModalProps {
  /** The account the group is opened for; null keeps the modal closed. */
  account: { accountid: string; accountname: string; isc: number | null } | null;
  onClose: () => void;
}

type Field = 'groupname' | 'revshare' | 'bank' | 'profile' | 'effectivedate';

/**
 * Spec §2.4 Add Group ID: the name defaults to the account's, the rev share to its ISC; the server allocates
 * the group ID and association number. Checked with the server's own schema first.
 */
export function AddGroupModal({ account, onClose }: AddGroupModalProps) {
  return (
    <Modal opened={account !== null} onClose={onClose} title="Add Group ID" size="md">
      {/* Keyed by account, so each opening starts from that account's defaults. */}
      {account && <AddGroupForm key={account.accountid} account={account} onClose={onClose} />}
    </Modal>
  );
}

function AddGroupForm({
  account,
  onClose,
}: {
  account: NonNullable<AddGroupModalProps['account']>;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [groupname, setGroupname] = useState(account.accountname);
  const [revshare, setRevshare] = useState(percentText(account.isc));
  const [bank, setBank] = useState<string | null>(null);
  const [profile, setProfile] = useState<string | null>(null);
  const [effectivedate, setEffectivedate] = useState('');
  const [problems, setProblems] = useState<Partial<Record<Field, string>>>({});

  const add = useMutation({
    mutationFn: (body: AddGroupIdBody) => call(partnerEndpoints.addGroupId, body),
    onSuccess: (group) => {
      notifications.show({
        color: 'teal',
        title: `Group ID ${group.groupid} added`,
        message: `${group.groupname}: association ${group.association_number}, ${group.bank}, processor ${group.processor}.`,
      });
      void queryClient.invalidateQueries({ queryKey: partnerKeys.all });
      onClose();
    },
  });

  const submit = () => {
    const parsed = addGroupIdBody.safeParse({
      accountid: account.accountid,
      groupname,
      revshare,
      bank: bank ?? '',
      profile,
      effectivedate,
    });
    if (!parsed.success) {
      const found: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as Field;
        found[field] ??=
          field === 'effectivedate' && effectivedate === '' ? 'Effective date is required' : issue.message;
      }
      if (bank === null) found.bank = 'Bank is required';
      setProblems(found);
      return;
    }
    setProblems({});
    // The percentage as typed: the server applies the same rule and stores it ÷ 100.
    add.mutate({ ...parsed.data, revshare });
  };

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
      noValidate
    >
      <Stack gap="sm">
        <TextInput
          label="Group Name"
          required
          value={groupname}
          onChange={(e) => setGroupname(e.currentTarget.value)}
          error={problems.groupname}
          maxLength={120}
        />
        <TextInput
          label="Rev Share"
          description="In percent, 0 to 100, up to two decimals"
          required
          inputMode="decimal"
          value={revshare}
          onChange={(e) => setRevshare(e.currentTarget.value)}
          error={problems.revshare}
          rightSection="%"
        />
        <Select
          label="Bank"
          required
          placeholder="Choose the bank"
          data={GROUP_BANKS}
          value={bank}
          onChange={setBank}
          error={problems.bank}
          comboboxProps={{ withinPortal: true }}
        />
        <Select
          label="Profile"
          placeholder="No profile"
          data={GROUP_PROFILES}
          value={profile}
          onChange={setProfile}
          clearable
          error={problems.profile}
          comboboxProps={{ withinPortal: true }}
        />
        <TextInput
          label="Effective Date"
          required
          type="date"
          value={effectivedate}
          onChange={(e) => setEffectivedate(e.currentTarget.value)}
          error={problems.effectivedate}
        />
        <TextInput label="Processor" value={NEW_GROUP_PROCESSOR} readOnly disabled />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={add.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={add.isPending} disabled={add.isPending}>
            Save
          </Button>
        </Group>
        {add.error && (
          <FormAlert kind="error">
            {errorMessage(add.error, 'The group could not be added. Try again.')}
          </FormAlert>
        )}
      </Stack>
    </form>
  );
}
