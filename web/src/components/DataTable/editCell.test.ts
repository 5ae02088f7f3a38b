import { describe, expect, it } from 'vitest';
import { type EditEvent, type EditState, editReducer, VIEWING } from './editCell';
import { pageSelection, togglePage, toggleRow } from './selection';

const run = (events: EditEvent[], from: EditState = VIEWING) => events.reduce(editReducer, from);

describe('an inline-edited cell', () => {
  it('opens with the row’s value and saves the typed one', () => {
    const typed = run([
      { type: 'start', value: 'Open' },
      { type: 'change', draft: 'Resolved' },
    ]);
    expect(typed).toEqual({ mode: 'editing', original: 'Open', draft: 'Resolved', error: null });
    expect(editReducer(typed, { type: 'save' })).toEqual({
      mode: 'saving',
      original: 'Open',
      draft: 'Resolved',
    });
    expect(run([{ type: 'save' }, { type: 'saved' }], typed)).toEqual(VIEWING);
  });

  it('keeps the typed value and the server’s message after a failed save, and clears the message on typing', () => {
    const failed = run([
      { type: 'start', value: 'Open' },
      { type: 'change', draft: 'x' },
      { type: 'save' },
      { type: 'failed', error: 'Resolution is too short' },
    ]);
    expect(failed).toEqual({
      mode: 'editing',
      original: 'Open',
      draft: 'x',
      error: 'Resolution is too short',
    });
    expect(editReducer(failed, { type: 'change', draft: 'xy' })).toMatchObject({ draft: 'xy', error: null });
  });

  it('closes without saving when cancelled or when nothing changed', () => {
    const open = run([
      { type: 'start', value: 'Open' },
      { type: 'change', draft: 'Closed' },
    ]);
    expect(editReducer(open, { type: 'cancel' })).toEqual(VIEWING);
    expect(run([{ type: 'start', value: 'Open' }, { type: 'save' }])).toEqual(VIEWING);
  });

  it('ignores typing, cancelling and a second save while a save is on its way', () => {
    const saving = run([{ type: 'start', value: 'a' }, { type: 'change', draft: 'b' }, { type: 'save' }]);
    for (const event of [
      { type: 'change', draft: 'c' },
      { type: 'cancel' },
      { type: 'save' },
    ] as EditEvent[]) {
      expect(editReducer(saving, event)).toBe(saving);
    }
    expect(editReducer(VIEWING, { type: 'saved' })).toBe(VIEWING);
    expect(editReducer(VIEWING, { type: 'failed', error: 'late' })).toBe(VIEWING);
  });
});

describe('row selection', () => {
  it('keeps rows selected on other pages when a page is selected and cleared', () => {
    let selected = toggleRow(new Set(), 'p1-a');
    expect(pageSelection(selected, ['p2-a', 'p2-b'])).toBe('none');
    selected = togglePage(selected, ['p2-a', 'p2-b']);
    expect([...selected].sort()).toEqual(['p1-a', 'p2-a', 'p2-b']);
    expect(pageSelection(selected, ['p2-a', 'p2-b'])).toBe('all');
    selected = togglePage(selected, ['p2-a', 'p2-b']);
    expect([...selected]).toEqual(['p1-a']);
  });

  it('selects the whole page when only part of it is selected', () => {
    const some = toggleRow(new Set(), 'b');
    expect(pageSelection(some, ['a', 'b'])).toBe('some');
    expect([...togglePage(some, ['a', 'b'])].sort()).toEqual(['a', 'b']);
    expect(toggleRow(some, 'b').size).toBe(0);
  });
});
