import { formatMoney as formatAmount, MoneyError, parseMoney } from '@paydesk/domain';

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO timestamp from the API as local 'YYYY-MM-DD HH:mm' (compact and unambiguous in tables); '—' when absent. */
export function formatDateTime(value: string | null): string {
  if (!value) return '—';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

const INTEGER = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/**
 * A money amount as '1,234.50' (or '-1,234.50'), by the money module (docs/money.md): the API sends exact
 * decimal strings and they never pass through floating point; a third decimal is rounded half-up.
 * Anything unreadable is shown as it came.
 */
export function formatMoney(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  try {
    return formatAmount(parseMoney(value, { round: 'half-up' }));
  } catch (error) {
    if (error instanceof MoneyError) return String(value).trim();
    throw error;
  }
}

/**
 * A money amount with its currency: '$1,234.56', and '-$1,234.56' below zero (the sign before the dollar
 * sign, where a reader looks first). '—' when absent; anything unreadable is shown as it came.
 */
export function formatCurrency(value: string | number | null | undefined): string {
  const amount = formatMoney(value);
  if (!/^-?[\d,]+\.\d{2}$/.test(amount)) return amount;
  return amount.startsWith('-') ? `-$${amount.slice(1)}` : `$${amount}`;
}

/** True for an amount below zero (shown in red in tables). */
export function isNegativeAmount(value: unknown): boolean {
  return formatMoney(value as string | number | null).startsWith('-');
}

/** A count as '12,345'; '—' when absent. */
export function formatCount(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? INTEGER.format(n) : String(value);
}

export type CellType = 'text' | 'integer' | 'money' | 'decimal' | 'date' | 'datetime' | 'percent' | 'month';

/** A table cell's text by the column's type. */
export function formatCell(type: CellType, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  switch (type) {
    case 'money':
      return formatCurrency(value as string | number);
    case 'integer':
      return formatCount(value as string | number);
    case 'percent':
      return `${String(value)}%`;
    case 'date':
      // Dates may arrive as timestamps; the day is what the table shows.
      return String(value).slice(0, 10);
    case 'datetime':
      return formatDateTime(String(value));
    default:
      return String(value);
  }
}

/** Numbers read right-aligned so digits line up. */
export function isNumericType(type: CellType): boolean {
  return type === 'money' || type === 'integer' || type === 'decimal' || type === 'percent';
}
