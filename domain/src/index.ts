import './zodConfig';

export * from './access';
export * from './contracts/account';
export * from './contracts/admin';
export * from './contracts/common';
export * from './contracts/reports';
export * from './months';
export * from './password';
export * from './session';
export * from './table';
