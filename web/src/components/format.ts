const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO timestamp from the API as local 'YYYY-MM-DD HH:mm' (compact and unambiguous in tables); '—' when absent. */
export function formatDateTime(value: string | null): string {
  if (!value) return '—';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
