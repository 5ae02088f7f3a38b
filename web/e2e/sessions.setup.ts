import { test as setup } from '@playwright/test';
import { DEMO_USERS, sessionOf, signIn } from './support';

// Each demo user signs in once per run; the specs start from these sessions instead of the login form.
for (const email of DEMO_USERS) {
  setup(`sign in ${email}`, async ({ page }) => {
    await signIn(page, email);
    await page.context().storageState({ path: sessionOf(email) });
  });
}
