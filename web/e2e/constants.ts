/** The demo password the browser tests start the server with. */
export const E2E_PASSWORD = 'Demo-Pass-2026!';
