export * from './access';
export * from './contracts/account';
export * from './contracts/admin';
export * from './contracts/common';
export * from './password';
export * from './session';
