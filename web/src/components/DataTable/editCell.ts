/**
 * An inline-edited cell's states. Pure, so the rules (a failed save keeps the typed value and stays open;
 * nothing is typed or cancelled while a save is on its way) are tested without a browser.
 */
export type EditState =
  | { mode: 'view' }
  | { mode: 'editing'; original: string; draft: string; error: string | null }
  | { mode: 'saving'; original: string; draft: string };

export type EditEvent =
  | { type: 'start'; value: string }
  | { type: 'change'; draft: string }
  | { type: 'cancel' }
  | { type: 'save' }
  | { type: 'failed'; error: string }
  | { type: 'saved' };

export const VIEWING: EditState = { mode: 'view' };

export function editReducer(state: EditState, event: EditEvent): EditState {
  switch (event.type) {
    case 'start':
      return state.mode === 'view'
        ? { mode: 'editing', original: event.value, draft: event.value, error: null }
        : state;
    case 'change':
      return state.mode === 'editing' ? { ...state, draft: event.draft, error: null } : state;
    case 'cancel':
      return state.mode === 'editing' ? VIEWING : state;
    case 'save':
      if (state.mode !== 'editing') return state;
      // Saving the value the row already has would only write an audit entry for nothing.
      if (state.draft === state.original) return VIEWING;
      return { mode: 'saving', original: state.original, draft: state.draft };
    case 'failed':
      return state.mode === 'saving'
        ? { mode: 'editing', original: state.original, draft: state.draft, error: event.error }
        : state;
    case 'saved':
      return state.mode === 'saving' ? VIEWING : state;
  }
}
