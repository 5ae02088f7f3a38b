import {
  addMonths,
  monthStart,
  RESIDUAL_FIRST_MONTH,
  RESIDUAL_LAG_MONTHS,
  SELF_SERVE_FIRST_MONTH,
} from '@paydesk/domain';
import { badRequest } from '../../platform/errors';

/** The month selectors' limits, enforced by the server too. */
export function selfServeMonth(dt: string): string {
  const last = monthStart(new Date());
  if (dt < SELF_SERVE_FIRST_MONTH || dt > last)
    throw badRequest(`dt must be a month from 2016-05 to ${last.slice(0, 7)}`);
  return dt;
}

export function latestResidualMonth(): string {
  return addMonths(monthStart(new Date()), -RESIDUAL_LAG_MONTHS);
}

export function residualMonth(dt: string): string {
  const last = latestResidualMonth();
  if (dt < RESIDUAL_FIRST_MONTH || dt > last)
    throw badRequest(`dt must be a month from 2021-01 to ${last.slice(0, 7)}`);
  return dt;
}
