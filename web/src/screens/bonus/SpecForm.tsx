import {
  Alert,
  Autocomplete,
  Button,
  Group,
  Modal,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import type { BonusChangeAnswer, IsoListEntry } from '@paydesk/domain';
import { IconAlertCircle, IconAlertTriangle } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { errorMessage } from '../../app/api';
import { type FieldErrors, type FormSchema, fieldErrors } from '../../components/forms/zodForm';
import { groupIdsOf, isoNames } from './specValues';

export type SpecValues = Record<string, string | boolean | null>;

export type FieldKind =
  | 'iso'
  | 'groups'
  | 'money'
  | 'number'
  | 'flag'
  | 'date'
  | 'text'
  | 'model'
  | { choice: readonly { value: string; label: string }[] };

export interface SpecField {
  name: string;
  label: string;
  kind: FieldKind;
  description?: string;
  /** Shown only when this holds (Days for Volume only when paid on activation). */
  shown?: (values: SpecValues) => boolean;
  /** Greyed out when this holds (Bonus under Placement Only, locked values of an edited spec). */
  disabled?: (values: SpecValues) => boolean;
}

export interface SpecFormConfig<Body> {
  title: string;
  fields: readonly SpecField[];
  initial: SpecValues;
  /** The request as the domain's schema reads it, checked before sending. */
  schema: FormSchema<Body>;
  toBody: (values: SpecValues, force: boolean) => unknown;
  /** Values that follow from others (Placement Only forces the bonus to 0 and pay-on to approval). */
  derive?: (values: SpecValues) => SpecValues;
  /** The server may answer "addable": confirm and resubmit with force. */
  canForce?: boolean;
  submit: (body: never) => Promise<BonusChangeAnswer>;
}

interface SpecFormProps<Body> {
  config: SpecFormConfig<Body> | null;
  isos: readonly IsoListEntry[] | undefined;
  models: readonly string[] | undefined;
  onClose: () => void;
  onSaved: (message: string) => void;
}

/**
 * An add or edit of a specification (spec document 3 §4, §5, §8): the fields checked by the domain's schema,
 * the server's refusal shown in the modal, in warning style when it can be forced (Yes resubmits with force)
 * and in danger style otherwise.
 */
export function SpecForm<Body>({ config, isos, models, onClose, onSaved }: SpecFormProps<Body>) {
  return (
    <Modal opened={config !== null} onClose={onClose} title={config?.title ?? ''} size="lg">
      {config && (
        <SpecFormBody
          key={config.title}
          config={config}
          isos={isos}
          models={models}
          onClose={onClose}
          onSaved={onSaved}
        />
      )}
    </Modal>
  );
}

type Refusal = { message: string; confirmable: boolean };

function SpecFormBody<Body>({
  config,
  isos,
  models,
  onClose,
  onSaved,
}: SpecFormProps<Body> & { config: SpecFormConfig<Body> }) {
  const derive = config.derive ?? ((v: SpecValues) => v);
  const [values, setValues] = useState<SpecValues>(() => derive(config.initial));
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const errors: FieldErrors = fieldErrors(config.schema, config.toBody(values, false));
  const shown = submitted ? errors : {};

  const set = (name: string, value: string | boolean | null) => {
    setRefusal(null);
    setValues((old) => {
      const next: SpecValues = { ...old, [name]: value };
      // Choosing an ISO fills its group IDs (editable afterwards).
      if (name === 'iso_name' && 'group_id' in old)
        next.group_id = typeof value === 'string' ? groupIdsOf(isos, value) : '';
      return derive(next);
    });
  };

  const send = async (force: boolean) => {
    setSubmitted(true);
    if (Object.keys(fieldErrors(config.schema, config.toBody(values, force))).length > 0) return;
    setBusy(true);
    try {
      const answer = await config.submit(config.toBody(values, force) as never);
      if (answer.success) {
        onSaved(answer.message || 'Saved');
      } else {
        setRefusal({
          message: answer.message,
          confirmable: Boolean(config.canForce && answer.addable && !force),
        });
      }
    } catch (error) {
      setRefusal({
        message: errorMessage(error, 'The specification was not saved. Please try again.'),
        confirmable: false,
      });
    } finally {
      setBusy(false);
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void send(false);
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <SimpleGrid cols={2} spacing="md" verticalSpacing="sm">
          {config.fields
            .filter((field) => field.shown?.(values) ?? true)
            .map((field) => (
              <FieldInput
                key={field.name}
                field={field}
                value={values[field.name] ?? null}
                error={shown[field.name]}
                disabled={field.disabled?.(values) ?? false}
                isos={isos}
                models={models}
                onChange={(value) => set(field.name, value)}
              />
            ))}
        </SimpleGrid>
        {refusal && (
          <Alert
            color={refusal.confirmable ? 'orange' : 'red'}
            variant="light"
            icon={refusal.confirmable ? <IconAlertTriangle size={18} /> : <IconAlertCircle size={18} />}
            title={refusal.confirmable ? 'Save anyway?' : 'Not saved'}
            role="alert"
          >
            <Stack gap="xs">
              <Text fz="sm">{refusal.message}</Text>
              {refusal.confirmable && (
                <Group gap="xs">
                  <Button size="xs" color="orange" onClick={() => void send(true)} loading={busy}>
                    Yes, save
                  </Button>
                  <Button size="xs" variant="default" onClick={() => setRefusal(null)} disabled={busy}>
                    No
                  </Button>
                </Group>
              )}
            </Stack>
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" loading={busy && !refusal?.confirmable} disabled={refusal?.confirmable}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function FieldInput({
  field,
  value,
  error,
  disabled,
  isos,
  models,
  onChange,
}: {
  field: SpecField;
  value: string | boolean | null;
  error: string | undefined;
  disabled: boolean;
  isos: readonly IsoListEntry[] | undefined;
  models: readonly string[] | undefined;
  onChange: (value: string | boolean | null) => void;
}) {
  const text = typeof value === 'string' ? value : '';
  const common = { label: field.label, description: field.description, error, disabled };
  const { kind } = field;
  if (kind === 'flag') {
    return (
      <Switch
        label={field.label}
        description={field.description}
        checked={value === true}
        disabled={disabled}
        onChange={(event) => onChange(event.currentTarget.checked)}
        mt="lg"
      />
    );
  }
  if (kind === 'iso') {
    return (
      <Select
        {...common}
        placeholder="Default (every ISO not listed)"
        data={isoNames(isos)}
        value={text === '' ? null : text}
        onChange={(name) => onChange(name)}
        searchable
        clearable
        nothingFoundMessage="No such ISO"
        comboboxProps={{ withinPortal: true }}
      />
    );
  }
  if (kind === 'model') {
    return (
      <Autocomplete
        {...common}
        data={[...(models ?? [])]}
        value={text}
        onChange={(model) => onChange(model)}
        comboboxProps={{ withinPortal: true }}
      />
    );
  }
  if (typeof kind === 'object') {
    return (
      <Stack gap={4}>
        <Text fz="sm" fw={500}>
          {field.label}
        </Text>
        <SegmentedControl
          aria-label={field.label}
          data={kind.choice.map((c) => ({ value: c.value, label: c.label }))}
          value={text}
          onChange={(choice) => onChange(choice)}
          disabled={disabled}
          fullWidth
        />
        {error && (
          <Text fz="xs" c="red">
            {error}
          </Text>
        )}
      </Stack>
    );
  }
  return (
    <TextInput
      {...common}
      type={kind === 'date' ? 'date' : 'text'}
      inputMode={kind === 'money' || kind === 'number' ? 'decimal' : undefined}
      leftSection={kind === 'money' ? '$' : undefined}
      value={text}
      onChange={(event) => onChange(event.currentTarget.value)}
    />
  );
}
