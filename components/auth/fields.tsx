import { Field, type FieldProps } from '@/components/ui/field';

/** A staff member's e-mail, the first field of sign-in and setup (password managers fill it as the username). */
export function StaffEmailField(props: Omit<FieldProps, 'label' | 'name'>) {
  return <Field label="E-mail" name="email" type="email" autoComplete="username" required autoFocus {...props} />;
}

/** A password, typed (`current-password`) or chosen (`new-password`, with its rule as the hint). */
export function PasswordField({
  label = 'Password',
  autoComplete,
  ...props
}: Omit<FieldProps, 'label' | 'type' | 'autoComplete'> & {
  label?: string;
  autoComplete: 'current-password' | 'new-password';
}) {
  return <Field label={label} name="password" type="password" autoComplete={autoComplete} required {...props} />;
}
