export * from './access';
export * from './password';
export * from './session';
export * from './contracts/common';
export * from './contracts/account';
export * from './contracts/admin';
