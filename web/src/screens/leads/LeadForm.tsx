import {
  Button,
  Fieldset,
  FileButton,
  Group,
  Loader,
  Progress,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { leadsEndpoints, leadsPaths } from '@paydesk/domain/leads/contracts';
import {
  isLeadPiiField,
  isLeadRequiredField,
  isMaskedValue,
  LEAD_FIELD_LABELS,
  LEAD_FORM_FIELDS,
  type LeadFormField,
  leadFormSchema,
  US_STATES,
} from '@paydesk/domain/leads/form';
import { formatSsn, formatTin } from '@paydesk/domain/leads/prefill';
import type { LeadStep } from '@paydesk/domain/leads/steps';
import { IconEye, IconFileUpload } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { call, errorMessage } from '../../app/api';
import { leadsKeys } from '../../app/queryKeys';
import { postForm } from '../../app/upload';
import { FormAlert } from '../../components/FormAlert';
import { useZodForm } from '../../components/forms/useZodForm';
import { fieldErrors } from '../../components/forms/zodForm';
import { DocumentButton } from './DocumentButton';
import { isPdfName } from './leadView';

type FormValues = Record<LeadFormField | 'lead_id', string>;
type Sources = Record<LeadFormField, 'saved' | 'application' | 'crm' | null>;

const SECTIONS: { legend: string; fields: LeadFormField[] }[] = [
  { legend: 'Applicant', fields: ['first_name', 'last_name', 'email', 'phone', 'ssn', 'dob'] },
  { legend: 'Home address', fields: ['home_address', 'home_city', 'home_state', 'home_zip'] },
  {
    legend: 'Business',
    fields: [
      'legal_name',
      'dba',
      'tin',
      'business_type',
      'business_email',
      'business_phone',
      'business_address_1',
      'business_address_2',
      'business_city',
      'business_state',
      'business_zip',
      'iso_split',
    ],
  },
  { legend: 'Bank account', fields: ['aba_number', 'dda_number'] },
  { legend: 'Sales', fields: ['owner_name', 'sales_agent', 'years_industry'] },
];

const STATE_FIELDS: ReadonlySet<LeadFormField> = new Set(['home_state', 'business_state']);

const PLACEHOLDERS: Partial<Record<LeadFormField, string>> = {
  ssn: '123-45-6789',
  dob: 'YYYY-MM-DD',
  tin: '12-3456789',
  aba_number: '9 digits',
  dda_number: '4 to 17 digits',
  phone: '(212) 555-0123',
  business_phone: '(212) 555-0123',
  home_zip: '12345',
  business_zip: '12345',
  iso_split: '%',
};

const SOURCE_TEXT = { application: 'From the application PDF', crm: 'From the CRM' } as const;

interface LeadFormProps {
  leadId: string;
  onSaved: (step: LeadStep & { lead_id: string }) => void;
}

/** Enter Information (spec §2.4, §5): the merchant's application, prefilled, checked by the domain's rules. */
export function LeadForm({ leadId, onSaved }: LeadFormProps) {
  const lead = useQuery({
    queryKey: leadsKeys.form(leadId),
    queryFn: () => call(leadsEndpoints.getLead, { lead_id: leadId }),
  });
  if (lead.error)
    return <FormAlert kind="error">{errorMessage(lead.error, 'The lead could not be loaded.')}</FormAlert>;
  if (!lead.data) return <Loader size="sm" aria-label="Loading the lead form" />;
  const initial = { lead_id: leadId } as FormValues;
  for (const field of LEAD_FORM_FIELDS) initial[field] = lead.data.form[field] ?? '';
  return (
    <LeadFormFields
      // A new answer (after an application upload or a save) starts the form again from it.
      key={lead.dataUpdatedAt}
      leadId={leadId}
      initial={initial}
      sources={lead.data.sources}
      saved={lead.data.saved}
      locked={lead.data.locked}
      company={lead.data.lead.Company}
      applicationDocument={lead.data.application_document}
      onSaved={onSaved}
    />
  );
}

interface FieldsProps extends LeadFormProps {
  initial: FormValues;
  sources: Sources;
  saved: boolean;
  locked: boolean;
  company: string | null;
  applicationDocument: string | null;
}

function LeadFormFields({
  leadId,
  initial,
  sources,
  saved,
  locked,
  company,
  applicationDocument,
  onSaved,
}: FieldsProps) {
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string | null>(null);
  const [tried, setTried] = useState(false);
  const [revealing, setRevealing] = useState<LeadFormField | null>(null);
  const form = useZodForm(leadFormSchema, initial, async (body) => {
    setProblem(null);
    try {
      const answer = await call(leadsEndpoints.addLead, body);
      notifications.show({ color: 'teal', message: answer.message });
      await queryClient.invalidateQueries({ queryKey: leadsKeys.form(leadId) });
      onSaved(answer.step);
    } catch (error) {
      setProblem(errorMessage(error, 'The lead could not be saved. Try again.'));
    }
  });

  const reveal = async (field: LeadFormField) => {
    if (!isLeadPiiField(field)) return;
    setRevealing(field);
    try {
      const answer = await call(leadsEndpoints.revealField, { lead_id: leadId, field });
      const value = answer.value ?? '';
      form.set(field, field === 'ssn' ? formatSsn(value) : field === 'tin' ? formatTin(value) : value);
    } catch (error) {
      setProblem(errorMessage(error, `${LEAD_FIELD_LABELS[field]} could not be revealed.`));
    } finally {
      setRevealing(null);
    }
  };

  const input = (field: LeadFormField) => {
    const label = LEAD_FIELD_LABELS[field];
    const source = sources[field];
    const common = {
      label,
      withAsterisk: isLeadRequiredField(field),
      readOnly: locked,
      // Read-only fields look it, so nobody types into an approved application.
      variant: locked ? 'filled' : 'default',
      description: source === 'application' || source === 'crm' ? SOURCE_TEXT[source] : undefined,
    };
    if (STATE_FIELDS.has(field))
      return (
        <Select
          key={field}
          {...common}
          data={US_STATES as unknown as string[]}
          searchable
          clearable={!locked}
          placeholder="NY"
          value={form.values[field] === '' ? null : form.values[field].toUpperCase()}
          onChange={(value) => form.set(field, value ?? '')}
          {...form.blur(field)}
          error={form.error(field)}
        />
      );
    const masked = isLeadPiiField(field) && isMaskedValue(form.values[field]);
    return (
      <TextInput
        key={field}
        {...common}
        {...form.text(field)}
        // A masked value is replaced as a whole: typing over it starts a new value.
        onFocus={masked ? (event) => event.currentTarget.select() : undefined}
        placeholder={PLACEHOLDERS[field]}
        autoComplete="off"
        spellCheck={false}
        inputMode={
          field === 'iso_split' || field === 'sales_agent' || field === 'years_industry'
            ? 'decimal'
            : undefined
        }
        rightSectionWidth={masked ? 84 : undefined}
        rightSection={
          masked ? (
            <Button
              size="compact-xs"
              variant="subtle"
              leftSection={<IconEye size={14} />}
              loading={revealing === field}
              aria-label={`Reveal ${label}`}
              onClick={() => reveal(field)}
            >
              Reveal
            </Button>
          ) : undefined
        }
      />
    );
  };

  const errorCount = tried ? Object.keys(fieldErrors(leadFormSchema, form.values)).length : 0;
  return (
    <form
      noValidate
      onSubmit={(event) => {
        setTried(true);
        return form.handleSubmit(event);
      }}
    >
      <Stack gap="lg" mt="md">
        <Text c="dimmed" fz="sm">
          {locked
            ? 'The underwriter approved this lead: its application can no longer change.'
            : saved
              ? 'The saved application. Sensitive numbers are masked; Reveal shows one in full and is recorded in the audit log.'
              : `A new application${company ? ` for ${company}` : ''}: values come from the application PDF, if one was uploaded, then from the CRM.`}
        </Text>
        <ApplicationUpload leadId={leadId} locked={locked} document={applicationDocument} />
        {SECTIONS.map((section) => (
          <Fieldset key={section.legend} legend={section.legend} radius="md">
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>{section.fields.map(input)}</SimpleGrid>
          </Fieldset>
        ))}
        {problem && <FormAlert kind="error">{problem}</FormAlert>}
        {errorCount > 0 && (
          <FormAlert kind="error">
            {errorCount === 1 ? '1 field needs' : `${errorCount} fields need`} attention before the lead can
            be saved.
          </FormAlert>
        )}
        {!locked && (
          <Group justify="flex-end">
            <Button type="submit" loading={form.submitting}>
              Save and continue
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}

/** The merchant's fillable application PDF: uploaded, its form fields prefill what the form does not hold yet. */
function ApplicationUpload({
  leadId,
  locked,
  document,
}: {
  leadId: string;
  locked: boolean;
  document: string | null;
}) {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const upload = async (file: File | null) => {
    if (!file) return;
    setProblem(null);
    if (!isPdfName(file.name)) {
      setProblem('Only a PDF file (.pdf) can be uploaded.');
      return;
    }
    const body = new FormData();
    body.append('lead_id', leadId);
    body.append('check_name', 'Application');
    body.append('file', file);
    setProgress(0);
    try {
      await postForm(leadsPaths.uploadDocument, body, setProgress);
      notifications.show({ color: 'teal', message: 'The application was read; the form shows its values.' });
      await queryClient.invalidateQueries({ queryKey: leadsKeys.form(leadId) });
    } catch (error) {
      setProblem(errorMessage(error, 'The application could not be uploaded.'));
    } finally {
      setProgress(null);
    }
  };

  if (locked && !document) return null;
  return (
    <Stack gap={6}>
      <Group gap="sm">
        {!locked && (
          <FileButton onChange={upload} accept="application/pdf,.pdf">
            {(props) => (
              <Button
                {...props}
                variant="default"
                leftSection={<IconFileUpload size={16} />}
                loading={progress !== null}
              >
                Upload application PDF
              </Button>
            )}
          </FileButton>
        )}
        {document && <DocumentButton name={document} label="Download application PDF" />}
        <Text fz="xs" c="dimmed">
          A fillable PDF application; its fields prefill what was not saved yet.
        </Text>
      </Group>
      {progress !== null && <Progress value={progress * 100} size="sm" aria-label="Upload progress" />}
      {problem && <FormAlert kind="error">{problem}</FormAlert>}
    </Stack>
  );
}
