import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { listAccounts } from '#server/accounts/list-accounts.ts';
import type { AppContext } from '#server/context.ts';
import { accountsUri } from './resources.ts';

/**
 * Prompts guide an assistant through the same path a careful person takes in the composer:
 * look up the accounts, write within each platform's limits, validate, then create (which asks
 * the user to confirm before anything is published or scheduled). Each names the tools it uses.
 */
export function registerPrompts(server: McpServer, ctx: AppContext, workspaceId: string): void {
  const accountsText = async () =>
    JSON.stringify({ accounts: await listAccounts(ctx, workspaceId) }, null, 2);
  const completeAccounts = async (value: string | undefined) => {
    const accounts = await listAccounts(ctx, workspaceId);
    const typed = (value ?? '').split(',').pop()?.trim().toLowerCase() ?? '';
    return accounts
      .filter((a) => [a.id, a.label, a.username].some((v) => v?.toLowerCase().startsWith(typed)))
      .map((a) => a.id)
      .slice(0, 20);
  };
  const accountArg = (description: string) =>
    completable(z.string().max(2000).describe(description), completeAccounts);
  // The SDK finds the completer on the argument's own schema: `.optional()` after completable()
  // wraps it in a schema without one (those arguments completed to nothing), so mark the wrapper.
  const optionalAccountArg = (description: string) =>
    completable(z.string().max(2000).describe(description).optional(), completeAccounts);

  const withAccounts = async (text: string): Promise<GetPromptResult> => ({
    messages: [
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: { uri: accountsUri, mimeType: 'application/json', text: await accountsText() },
        },
      },
      { role: 'user', content: { type: 'text', text } },
    ],
  });

  server.registerPrompt(
    'announce',
    {
      title: 'Announce something',
      description:
        'Write and publish an announcement about a topic to some accounts. Leads to: list_accounts → get_platform_rules → validate_post → create_post.',
      argsSchema: {
        topic: z.string().max(5000).describe('What to announce (a launch, an event, a release…)'),
        accounts: optionalAccountArg('Account ids or names, comma-separated (empty: ask me)'),
      },
    },
    async ({ topic, accounts }) =>
      withAccounts(
        [
          `Help me announce: ${topic}`,
          '',
          accounts
            ? `Post to these accounts: ${accounts}. Match names to ids with the connected accounts above (or list_accounts).`
            : 'Ask me which of the connected accounts above to post to.',
          'Steps:',
          '1. Call get_platform_rules for the chosen accounts, then draft one message that fits every one of them (length as each platform counts it, media, required options such as a title).',
          '2. Call validate_post with the message, accountIds and any media or accountOptions. Fix every error it reports and validate again; mention warnings to me.',
          '3. Show me the final text and ask whether to publish now, schedule (ask for the time, with my time zone) or save a draft.',
          '4. Call create_post with that postingMode (and scheduledAt for "schedule"). Postwave asks me to confirm before publishing; if I decline, stop.',
          '5. Report the result: the post id, its status, and each account’s link or error.',
        ].join('\n'),
      ),
  );

  server.registerPrompt(
    'thread_from_text',
    {
      title: 'Turn a long text into a thread',
      description:
        'Split a long text into a numbered series of posts that each fit one account’s limit, then publish them in order. Leads to: get_platform_rules → validate_post (each part) → create_post (each part, in order) → get_post.',
      argsSchema: {
        text: z.string().max(100_000).describe('The text to turn into a thread'),
        account: accountArg('The account id or name to post the thread to'),
      },
    },
    async ({ text, account }) =>
      withAccounts(
        [
          `Turn the text below into a thread for the account "${account}" (find its id and platform in the connected accounts above).`,
          '',
          'Steps:',
          '1. Call get_platform_rules for the account to learn its limit. Split the text at sentence or paragraph boundaries into parts that each fit the platform’s limit, numbered "1/N", "2/N"… Keep the meaning and wording; do not pad.',
          '2. Call validate_post for every part with accountIds [that id]; shorten any part it rejects and validate again.',
          '3. Show me all parts and ask whether to publish them now or save them as drafts.',
          '4. Create them in order with create_post (one call per part, waiting for each to finish; Postwave asks me to confirm publishing). Stop at the first part that fails or that I decline.',
          '5. Report each part’s status and link (get_post shows the results).',
          '',
          'The text:',
          text,
        ].join('\n'),
      ),
  );

  server.registerPrompt(
    'plan_week',
    {
      title: 'Plan a week of posts',
      description:
        'Plan and schedule a series of posts over the coming days. Leads to: list_accounts → validate_post → create_post (postingMode "schedule") → list_posts.',
      argsSchema: {
        goal: z.string().max(5000).describe('What the posts should achieve or talk about'),
        accounts: optionalAccountArg('Account ids or names, comma-separated (empty: ask me)'),
        posts: z.string().max(10).describe('How many posts (default 5)').optional(),
      },
    },
    async ({ goal, accounts, posts }) =>
      withAccounts(
        [
          `Plan ${posts || '5'} posts over the next 7 days about: ${goal}`,
          accounts ? `Accounts: ${accounts}.` : 'Ask me which of the connected accounts above to use.',
          '',
          'Steps:',
          '1. Propose a schedule (dates and times in my time zone, at least a few hours apart) and a message for each. Wait for my go-ahead.',
          '2. Validate each post with validate_post and fix what it reports.',
          '3. Schedule each with create_post (postingMode "schedule", scheduledAt as ISO 8601 with offset). I confirm each one.',
          '4. Finish with list_posts (status "scheduled") to show me the plan as stored.',
        ].join('\n'),
      ),
  );

  server.registerPrompt(
    'fix_failed_posts',
    {
      title: 'Fix failed posts',
      description:
        'Find posts that failed, explain why, fix what can be fixed and retry. Leads to: list_posts (status "failed") → get_post → update_post → validate_post → publish_post.',
    },
    async () => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: [
              'Look at my failed posts and help me fix them.',
              '1. Call list_posts with status "failed".',
              '2. For each, read the per-account results: which accounts posted, which failed and the error message.',
              '3. Explain each failure plainly. If the content must change (too long, bad media, missing option), propose the fix and apply it with update_post after I agree, then validate_post.',
              '4. If an account needs reconnecting, tell me to reconnect it in Postwave (Accounts page); do not retry it.',
              '5. Retry with publish_post: it only republishes where it failed, never twice. I confirm each retry.',
            ].join('\n'),
          },
        },
      ],
    }),
  );

  server.registerPrompt(
    'adapt_for_platforms',
    {
      title: 'Adapt one message for several platforms',
      description:
        'Check one message against several accounts and adapt it where a platform needs something different. Leads to: validate_post → create_post (one per variant) or a single create_post when one text fits all.',
      argsSchema: {
        message: z.string().max(100_000).describe('The message to adapt'),
        accounts: accountArg('Account ids or names, comma-separated'),
      },
    },
    async ({ message, accounts }) =>
      withAccounts(
        [
          `Adapt this message for the accounts ${accounts}:`,
          '',
          message,
          '',
          '1. Call validate_post with it for all those accounts.',
          '2. Where an account rejects it (length, media, options such as a title), write a variant for that account and validate it alone.',
          '3. Show me the variants. On my go-ahead, create one post per variant with create_post (accounts that accept the original share one post). I confirm before anything is published.',
        ].join('\n'),
      ),
  );
}
