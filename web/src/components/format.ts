const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO timestamp from the API as local 'YYYY-MM-DD HH:mm' (compact and unambiguous in tables); '—' when absent. */
export function formatDateTime(value: string | null): string {
  if (!value) return '—';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

const INTEGER = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** Thousands separators on a string of digits. */
function groupDigits(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * A money amount as '1,234.50' (or '-1,234.50'). The API sends exact decimal strings; they are formatted
 * as text so no amount passes through floating point. Anything unreadable is shown as it came.
 */
export function formatMoney(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  const text = typeof value === 'number' ? value.toFixed(2) : value.trim();
  const match = /^(-?)(\d+)(?:\.(\d*))?$/.exec(text);
  if (!match) return text;
  const [, sign = '', whole = '0', fraction = ''] = match;
  let cents = fraction.padEnd(2, '0');
  let units = whole.replace(/^0+(?=\d)/, '');
  if (cents.length > 2) {
    // Round half up on the digits, carrying into the whole part when needed.
    const rounded = BigInt(units + cents.slice(0, 2)) + (Number(cents[2]) >= 5 ? 1n : 0n);
    const digits = rounded.toString().padStart(3, '0');
    units = digits.slice(0, -2);
    cents = digits.slice(-2);
  }
  const negative = sign === '-' && /[1-9]/.test(units + cents);
  return `${negative ? '-' : ''}${groupDigits(units)}.${cents}`;
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
