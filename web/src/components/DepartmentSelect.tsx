import { Select } from '@mantine/core';
import { DEPARTMENT_LABELS, DEPARTMENTS, type Department } from '@paydesk/domain';

const OPTIONS = DEPARTMENTS.map((value) => ({ value, label: DEPARTMENT_LABELS[value] }));

interface DepartmentSelectProps {
  value: Department | null;
  onChange: (department: Department) => void;
  description?: string;
}

/** The five departments with their labels, in the domain's order. */
export function DepartmentSelect({ value, onChange, description }: DepartmentSelectProps) {
  return (
    <Select<Department>
      label="Department"
      description={description}
      placeholder="Choose a department"
      data={OPTIONS}
      value={value}
      onChange={(department) => department && onChange(department)}
      allowDeselect={false}
      // Unmounted while closed, so the label names only the input (one match for getByLabel).
      comboboxProps={{ keepMounted: false }}
    />
  );
}
