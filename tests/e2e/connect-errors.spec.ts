import { expectAccessible } from './axe.ts';
import { botToken, expect, signUp, test } from './fixtures.ts';

/*
 * Contract F in the app: when the platform refuses a connection, the connect form says what
 * happened and, under it in the same alert, what the person can do (the problem's `hint`).
 */

test('a refused connection says what happened and what to do about it', async ({ page, shot }) => {
  await signUp(page, 'Hint Reader');
  await page.getByRole('button', { name: 'Telegram' }).click();
  const form = page.getByRole('form', { name: 'Connect Telegram' });

  await form.getByLabel('Bot token').fill(botToken);
  await form.getByLabel('Channel or chat').fill('@missing');
  await form.getByRole('button', { name: 'Connect', exact: true }).click();
  const alert = form.getByRole('alert');
  await expect(alert).toContainText('Telegram cannot reach that target');
  // The hint is inside the alert, so a screen reader announces it with the message.
  await expect(alert.getByTestId('connect-error-hint')).toHaveText(
    /check the address and that the account may post there, then connect again/,
  );
  await shot(page, 'connect-error-hint');
  await expectAccessible(page, 'connect-error-hint', { testInfo: test.info() });

  await form.getByLabel('Bot token').fill('999:nope');
  await form.getByLabel('Channel or chat').fill('@news');
  await form.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(alert).toContainText('Telegram rejected the credentials');
  await expect(alert.getByTestId('connect-error-hint')).toHaveText(/copy them again from the platform/);
  await expect(page.getByTestId('account-card')).toHaveCount(0);
});
