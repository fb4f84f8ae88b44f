import { startWebhookReceiver, type WebhookReceiver } from '@postwave/shared/testing';
import { startApp } from '../../web/test/helpers/app.ts';
import { expectAccessible } from './axe.ts';
import { test as base, expect, signUp } from './fixtures.ts';

/**
 * Webhook setup in the browser (docs/webhooks.md): add an endpoint with event checkboxes, see the secret
 * once, send a test event and find it in the delivery log. The app is the shared fixture's, with
 * the local receiver (which verifies signatures with `standardwebhooks`) allowed as a private host.
 */
const test = base.extend<object, { receiver: WebhookReceiver }>({
  receiver: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take a destructured first argument
    async ({}, use) => {
      const receiver = await startWebhookReceiver();
      await use(receiver);
      await receiver.close();
    },
    { scope: 'worker' },
  ],
  app: [
    async ({ telegram, receiver }, use) => {
      const app = await startApp('pglite', {
        TELEGRAM_API_URL: telegram.url,
        ALLOW_PRIVATE_HOSTS: new URL(receiver.url).host,
      });
      await use(app);
      await app.stop();
    },
    { scope: 'worker', timeout: 90_000 },
  ],
});

test('webhook setup: create with chosen events, copy the secret once, send a test, read the log', async ({
  page,
  receiver,
  shot,
  baseURL,
}) => {
  await signUp(page, 'Katherine Johnson');
  await page.goto('/settings');
  const section = page.getByRole('region', { name: 'Webhooks' });
  await expect(section).toBeVisible();
  await expect(section.getByText('No webhook endpoints')).toBeVisible();

  await section.getByLabel('Endpoint URL').fill(receiver.url);
  await section.getByLabel('Description (optional)').fill('Ops alerts');
  // Every event starts checked; the keyboard unchecks one.
  const events = section.getByRole('group', { name: 'Events' });
  await expect(events.getByRole('checkbox')).toHaveCount(10);
  const disconnected = events.getByRole('checkbox', { name: /account\.disconnected/ });
  await disconnected.focus();
  await page.keyboard.press('Space');
  await expect(disconnected).not.toBeChecked();
  await section.getByRole('button', { name: 'Add endpoint' }).click();

  const secret = section.getByTestId('webhook-secret');
  await expect(secret).toHaveText(/^whsec_/);
  await expect(section.getByRole('status').filter({ hasText: 'it will not be shown again' })).toBeFocused();
  await expect(section.getByRole('button', { name: 'Copy secret' })).toBeVisible();
  receiver.secrets = [(await secret.textContent())!];
  const endpoint = section.getByRole('listitem').filter({ hasText: receiver.url });
  await expect(endpoint).toContainText('post.published');
  await expect(endpoint).not.toContainText('account.disconnected');
  await expect(endpoint.getByText('Enabled')).toBeVisible();
  await shot(page, 'webhooks-created-secret-once');
  await expectAccessible(page, 'webhooks-created-secret-once', { testInfo: test.info(), soft: true });

  // Shown once: after a reload the secret is nowhere on the page.
  await page.reload();
  await expect(page.getByRole('region', { name: 'Webhooks' }).getByRole('listitem')).toHaveCount(1);
  expect(await page.content()).not.toContain(receiver.secrets[0]);

  const item = page.getByRole('region', { name: 'Webhooks' }).getByRole('listitem');
  await item.getByRole('button', { name: 'Send test event' }).click();
  await expect(page.getByTestId('webhook-announcement')).toContainText('Test event delivered');
  const log = item.getByTestId('delivery-log');
  await expect(log).toBeVisible();
  await expect(log.getByRole('row').nth(1)).toContainText('webhook.test');
  await expect(log.getByRole('row').nth(1)).toContainText('Delivered');
  await expect(log.getByRole('row').nth(1)).toContainText('HTTP 204');
  await expect(item.getByRole('button', { name: 'Hide delivery log' })).toHaveAttribute(
    'aria-expanded',
    'true',
  );
  expect(receiver.received).toHaveLength(1);
  expect(receiver.received[0]!.verifiedWith).toEqual(receiver.secrets);
  expect((receiver.received[0]!.payload as { type: string }).type).toBe('webhook.test');
  await shot(page, 'webhooks-delivery-log');
  await expectAccessible(page, 'webhooks-delivery-log', { testInfo: test.info(), soft: true });

  // Redeliver from the log: the same message again, logged as a second attempt.
  const redeliver = log.getByRole('button', { name: /^Redeliver webhook\.test/ });
  await redeliver.press('Enter');
  await expect.poll(() => receiver.received.length).toBe(2);
  expect(receiver.received[1]!.headers['webhook-id']).toBe(receiver.received[0]!.headers['webhook-id']);
  await expect(log.getByRole('row').nth(1)).toContainText('2 attempts');
  // aria-disabled while it works, not disabled: the focus stayed on it, not <body>.
  await expect(redeliver).toBeFocused();

  // Turned off (here through the API, as after a day of failures): the notice offers "Turn on
  // again". Pressed, the notice and its button go; the endpoint's heading takes the focus.
  const [hook] = (await (await page.request.get('/api/v1/webhooks')).json()).webhooks;
  const off = await page.request.patch(`/api/v1/webhooks/${hook.id}`, {
    headers: { origin: baseURL! },
    data: { enabled: false },
  });
  expect(off.status()).toBe(200);
  await page.reload();
  const disabled = page.getByRole('region', { name: 'Webhooks' }).getByRole('listitem');
  await expect(disabled.getByText('This endpoint is turned off.')).toBeVisible();
  const turnOn = disabled.getByRole('button', { name: 'Turn on again' });
  await turnOn.press('Enter');
  await expect(page.getByTestId('webhook-announcement')).toContainText('is turned on again');
  await expect(disabled.getByText('Enabled')).toBeVisible();
  await expect(turnOn).toHaveCount(0);
  await expect(disabled.getByRole('heading', { name: receiver.url })).toBeFocused();

  // Deleted by keyboard: the endpoint and its buttons go; the focus moves to the "Add an endpoint"
  // heading (no endpoint is left) rather than falling to <body>, and the live region says so.
  await disabled.getByRole('button', { name: 'Delete', exact: true }).press('Enter');
  await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).press('Enter');
  await expect(page.getByText('No webhook endpoints')).toBeVisible();
  await expect(page.getByTestId('webhook-announcement')).toContainText(`${receiver.url} deleted.`);
  await expect(page.getByRole('heading', { name: 'Add an endpoint' })).toBeFocused();
});
