import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AccountRow } from '#server/accounts/repository.ts';
import { describeAccount, nameAccountsInIssues } from '#server/imports/account-names.ts';
import { accountMatcher } from '#server/imports/accounts.ts';

/** How an import names accounts (issue 30): handles with or without the instance, names not ids. */
const account = (
  id: string,
  platform: string,
  platformAccountId: string,
  username: string | null,
  label: string | null,
) => ({ id, platform, platformAccountId, username, label }) as AccountRow;

const dana = account('acc_dana', 'mastodon', '10923', '@dana@social.example', 'Dana');
const news = account('acc_news', 'telegram', '@news', 'news', 'Company news');
const newsSky = account('acc_sky', 'bluesky', 'did:plc:abc', 'news.bsky.social', null);

test('a fediverse handle matches with or without its instance', () => {
  const match = accountMatcher([dana, news, newsSky]);
  for (const ref of [
    '@dana',
    'dana',
    '@Dana@social.example',
    'dana@social.example',
    'acc_dana',
    'mastodon:@dana',
  ]) {
    assert.deepEqual(match(ref), { account: dana }, ref);
  }
  assert.deepEqual(match('@dana@elsewhere.example'), { error: 'account_not_found' });
  assert.deepEqual(match('@news'), { account: news });
  assert.deepEqual(match('news.bsky.social'), { account: newsSky });
});

test('a handle two accounts share is ambiguous, and the error names both by label and handle', () => {
  const other = account('acc_dana2', 'misskey', 'x9', '@dana@misskey.example', null);
  const match = accountMatcher([dana, other]);
  const result = match('@dana');
  assert.ok('error' in result && result.error === 'account_ambiguous');
  assert.deepEqual(result.candidates, [
    'Dana (@dana@social.example on Mastodon)',
    '@dana@misskey.example on Misskey',
  ]);
  // The full handle still picks one.
  assert.deepEqual(match('@dana@misskey.example'), { account: other });
  // An exact handle wins over a handle that only matches without its instance.
  const plain = account('acc_plain', 'telegram', '@dana', 'dana', null);
  assert.deepEqual(accountMatcher([dana, plain])('@dana'), { account: plain });
});

test('issues name accounts by label and handle, never by id', () => {
  assert.equal(describeAccount(news), 'Company news (@news on Telegram)');
  const [about, quoting, general] = nameAccountsInIssues(
    [
      {
        path: 'message',
        code: 'too_long',
        message: 'Too long: 5000 of 4096 characters',
        accountId: 'acc_news',
      },
      { path: 'accounts', code: 'x', message: 'acc_dana cannot post media' },
      { path: 'scheduledAt', code: 'required', message: 'A scheduled row needs scheduledAt' },
    ],
    [dana, news],
  );
  assert.equal(about!.message, 'Company news (@news on Telegram): Too long: 5000 of 4096 characters');
  assert.equal(about!.accountId, 'acc_news', 'the id stays for programs');
  assert.equal(quoting!.message, 'Dana (@dana@social.example on Mastodon) cannot post media');
  assert.equal(general!.message, 'A scheduled row needs scheduledAt');
});
