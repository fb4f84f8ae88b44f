/** The fake Telegram's bot tokens: plain data, so service tests use them without the app helpers. */
export const bots = {
  main: { token: '111111:AAbbCCddEEffGGhhIIjjKKllMMnnOOppQQr', username: 'postwave_main_bot' },
  second: { token: '222222:ZZyyXXwwVVuuTTssRRqqPPooNNmmLLkkJJi', username: 'postwave_second_bot' },
};
