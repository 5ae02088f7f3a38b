import { describe, expect, it } from 'vitest';
import {
  parseProgress,
  STATUS_POLL_MS,
  statusPollInterval,
  TABLE_POLL_MS,
  tablePollInterval,
} from './jobState';

describe('tablePollInterval', () => {
  it('asks again while any row is queued, running or waiting to retry', () => {
    for (const state of ['created', 'active', 'retry']) {
      expect(tablePollInterval([{ state: 'completed' }, { state }, { state: 'failed' }])).toBe(TABLE_POLL_MS);
    }
  });

  it('stops once every row has finished, and when there is nothing to show', () => {
    expect(tablePollInterval([{ state: 'completed' }, { state: 'failed' }, { state: 'cancelled' }])).toBe(
      false,
    );
    expect(tablePollInterval([])).toBe(false);
    expect(tablePollInterval(undefined)).toBe(false);
  });
});

describe('statusPollInterval', () => {
  it('polls one job every second until it has finished', () => {
    expect(statusPollInterval({ state: 'created' })).toBe(STATUS_POLL_MS);
    expect(statusPollInterval({ state: 'active' })).toBe(STATUS_POLL_MS);
    expect(statusPollInterval({ state: 'retry' })).toBe(STATUS_POLL_MS);
    expect(statusPollInterval({ state: 'completed' })).toBe(false);
    expect(statusPollInterval({ state: 'failed' })).toBe(false);
    expect(statusPollInterval(undefined)).toBe(false);
  });
});

describe('parseProgress', () => {
  it('splits a running job’s progress into percent and text', () => {
    expect(parseProgress('active', '45% — Reading rows')).toEqual({ percent: 45, message: 'Reading rows' });
    expect(parseProgress('active', '100% — Done — 3 files')).toEqual({
      percent: 100,
      message: 'Done — 3 files',
    });
    expect(parseProgress('active', '0% — ')).toEqual({ percent: 0, message: '' });
  });

  it('gives nothing for other states, whose column holds only a line of text', () => {
    expect(parseProgress('completed', '100% — Sent')).toBeNull();
    expect(parseProgress('failed', 'Failed')).toBeNull();
    expect(parseProgress('active', null)).toBeNull();
    expect(parseProgress('active', 'Started')).toBeNull();
  });
});
