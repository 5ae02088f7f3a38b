import './zodConfig';

export * from './access';
export * from './audit';
export * from './businessDays';
export * from './calculator';
export * from './contracts/account';
export * from './contracts/admin';
export * from './contracts/common';
export * from './contracts/financial';
export * from './contracts/reports';
export * from './contracts/sales';
export * from './contracts/savedReportFilters';
export * from './endpoint';
export * from './money';
export * from './months';
export * from './password';
export * from './session';
export * from './table';
