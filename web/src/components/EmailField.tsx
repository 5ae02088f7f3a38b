import { TextInput, type TextInputProps } from '@mantine/core';
import { IconAt } from '@tabler/icons-react';

/** An e-mail entry: lower-cased as it is typed, as the server stores addresses (sign-in, forgot, register). */
export function EmailField({
  value,
  onChange,
  ...props
}: Omit<TextInputProps, 'value' | 'onChange'> & { value: string; onChange: (email: string) => void }) {
  return (
    <TextInput
      label="Email"
      type="email"
      autoComplete="username"
      placeholder="you@company.com"
      leftSection={<IconAt size={16} />}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value.toLowerCase())}
      {...props}
    />
  );
}
