import type { PasswordInputProps } from '@mantine/core';
import { PASSWORD_HINT } from '@paydesk/domain/password';
import { PasswordField } from './PasswordField';

/** A new password, with the password rule as its hint, and its confirmation (register, change password). */
export function NewPasswordFields({
  password,
  confirm,
}: {
  password: PasswordInputProps;
  confirm: PasswordInputProps;
}) {
  return (
    <>
      <PasswordField
        label="New password"
        description={PASSWORD_HINT}
        autoComplete="new-password"
        {...password}
      />
      <PasswordField label="Confirm password" autoComplete="new-password" {...confirm} />
    </>
  );
}
