export { MonthSelect } from './MonthSelect';
export { clampMonth, useMonthParam } from './useMonthParam';
