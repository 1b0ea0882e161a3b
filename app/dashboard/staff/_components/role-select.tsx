import type { ComponentProps } from 'react';
import { SelectField } from '@/components/ui/field';
import { ROLE_LABELS } from '@/components/dashboard/role-names';
import type { StaffRole } from '@/server/lib/staff-roles';

/** A labelled, uncontrolled choice of role (`name="role"`), each option saying what the role may do. */
export function RoleSelect({
  roles,
  ...select
}: Omit<ComponentProps<'select'>, 'name' | 'children'> & { roles: readonly StaffRole[] }) {
  return (
    <SelectField label="Role" name="role" {...select}>
      {roles.map((r) => (
        <option key={r} value={r}>
          {ROLE_LABELS[r].name}: {ROLE_LABELS[r].what}
        </option>
      ))}
    </SelectField>
  );
}
