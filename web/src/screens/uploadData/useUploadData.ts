import {
  addMonths,
  monthStart,
  RESIDUAL_FIRST_MONTH,
  RESIDUAL_LAG_MONTHS,
  UPLOAD_TYPES,
  type UploadType,
  uploadEndpoints,
} from '@paydesk/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { call } from '../../app/api';
import { reportKeys, uploadKeys } from '../../app/queryKeys';
import { latestParams } from '../../components/DataTable';
import type { ExportPreview } from '../../components/ExportModal';
import { clampMonth } from '../../components/MonthSelect';

/** Types whose rows belong to a month; ScheduleA is kept by ISO and effective date instead. */
export const hasMonth = (type: UploadType) => type !== 'schedulea';

export function uploadMonths(now = new Date()) {
  return { first: RESIDUAL_FIRST_MONTH, last: addMonths(monthStart(now), -RESIDUAL_LAG_MONTHS) };
}

export function parseUploadType(value: string | null): UploadType {
  return UPLOAD_TYPES.find((type) => type === value) ?? 'adjustments';
}

/** The chosen file type and month, kept in the URL; and the stored rows the export would hold. */
export function useUploadData() {
  const [params, setParams] = useSearchParams();
  const type = parseUploadType(params.get('type'));
  const { first, last } = uploadMonths();
  const month = clampMonth(params.get('month'), first, last, last);
  const queryClient = useQueryClient();

  const set = useCallback(
    (key: 'type' | 'month', value: string) =>
      setParams(() => {
        const out = latestParams();
        out.set(key, value);
        return out;
      }),
    [setParams],
  );

  const body = hasMonth(type) ? { month } : {};
  const rows = useQuery({
    queryKey: uploadKeys.rows(type, hasMonth(type) ? month : null),
    queryFn: () => call(uploadEndpoints(type).rows, body),
  });

  const loadPreview = async (): Promise<ExportPreview> => {
    const all = await call(uploadEndpoints(type).rows, body);
    return { rows: all, total: all.length };
  };

  return {
    type,
    loadPreview,
    setType: (next: UploadType) => set('type', next),
    month,
    setMonth: (next: string) => set('month', next),
    firstMonth: first,
    lastMonth: last,
    body,
    rows,
    /** An upload changes that type's rows, and residual uploads change the residual report. */
    refresh: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: uploadKeys.type(type) }),
        queryClient.invalidateQueries({ queryKey: reportKeys.all }),
      ]),
  };
}
