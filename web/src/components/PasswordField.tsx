import { PasswordInput, type PasswordInputProps } from '@mantine/core';

/**
 * Mantine's show/hide toggle is labelled "Toggle password visibility", which a label search for
 * "Password" also finds; this label keeps the field's own label the only match.
 */
export function PasswordField(props: PasswordInputProps) {
  return (
    <PasswordInput
      autoComplete="current-password"
      visibilityToggleButtonProps={{ 'aria-label': 'Show or hide the characters' }}
      {...props}
    />
  );
}
