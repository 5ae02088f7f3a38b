/** Spec §4/§5: only a non-empty file whose name ends in .xlsx can be imported. */
export function canImport(file: Pick<File, 'name' | 'size'> | null): boolean {
  return file !== null && /\.xlsx$/i.test(file.name.trim()) && file.size > 0;
}

/** Why a chosen file cannot be imported, or null when it can. */
export function fileProblem(file: Pick<File, 'name' | 'size'> | null): string | null {
  if (file === null) return null;
  if (!/\.xlsx$/i.test(file.name.trim())) return 'Choose an .xlsx file (Excel workbook).';
  if (file.size === 0) return 'This file is empty.';
  return null;
}
