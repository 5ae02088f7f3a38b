import { formatDateTime } from './format';

/** A timestamp for table cells: may wrap between date and time, never inside either. */
export function DateTimeText({ value }: { value: string | null }) {
  const [date, time] = formatDateTime(value).split(' ');
  if (!time) return date;
  return (
    <>
      <span style={{ whiteSpace: 'nowrap' }}>{date}</span>{' '}
      <span style={{ whiteSpace: 'nowrap' }}>{time}</span>
    </>
  );
}
