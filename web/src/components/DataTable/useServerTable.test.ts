import { selfServeTable } from '@paydesk/domain';
import { describe, expect, it } from 'vitest';
import { previewPageSize } from './useServerTable';

describe('previewPageSize', () => {
  it('asks for the smallest page the server accepts that holds the preview', () => {
    expect(previewPageSize(selfServeTable)).toBe(10);
    expect(previewPageSize({ pageSizes: [25, 50, 5], defaultPageSize: 25 })).toBe(25);
    expect(previewPageSize({ pageSizes: [5], defaultPageSize: 5 })).toBe(5);
  });
});
