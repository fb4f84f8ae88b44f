import type { FakeTelegram } from '../fakes/telegram.ts';

/** The conformance target's platform hooks over a fake Telegram. */
export function telegramHooks(telegram: FakeTelegram) {
  return {
    published: (message: string) => telegram.sent.filter((m) => m.text === message).length,
    attempts: () => telegram.requestCount('sendMessage'),
    slowNextPublish(ms: number) {
      telegram.injectServerError(502, { method: 'sendMessage', delayMs: ms });
    },
    failNextPublish() {
      telegram.inject({
        method: 'sendMessage',
        status: 400,
        json: { ok: false, error_code: 400, description: 'Bad Request: chat not found' },
      });
    },
  };
}
