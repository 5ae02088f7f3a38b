/** Colours that mean the same thing on every chart and card. */
export const MEASURE_COLORS = {
  submitted: '#4263eb',
  approved: '#2f9e44',
  closed: '#e03131',
  goal: '#f08c00',
  remaining: '#d3f9d8',
} as const;

export const PROFILE_COLORS: Record<string, string> = {
  PayLo: '#1c7ed6',
  Traditional: '#12b886',
  'High Risk': '#f76707',
  Unassigned: '#868e96',
};

export const BANK_COLORS: Record<string, string> = {
  CBCAL: '#5f3dc4',
  PPS: '#1098ad',
  Esquire: '#e64980',
  Chesapeake: '#74b816',
  FirstData: '#f59f00',
};

export const STATUS_COLORS = { Active: 'green', InActive: 'yellow', Dead: 'gray' } as const;
