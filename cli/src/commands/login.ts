import { ApiError, UnexpectedAnswer } from '../api.ts';
import { type Context, type OptionSpecs, unexpectedArgument } from '../command.ts';
import { writeConfig } from '../config.ts';
import { login } from '../login.ts';
import { WhoAmI } from '../responses.ts';

export const summary = 'connect this computer to your account';
export const synopsis = [['login', 'connect this computer to your account (opens the browser)']] as const;

export const help = `Usage: postwave login [--server <url>] [--no-browser] [--device <name>]

Opens the Scheduler in your browser to approve this device, then stores a CLI token
(file mode 0600) in the config directory. The token shows up under API tokens in the
web app, where you can revoke it.

  --no-browser      print the URL instead of opening a browser (e.g. over SSH, open it
                    on a machine that can reach this one's 127.0.0.1)
  --device <name>   the name shown on the approval page and in the token list

Example: postwave login --server https://postwave.example.com
`;

export const options = {
  'no-browser': { type: 'boolean', summary: 'print the URL instead of opening a browser' },
  device: { type: 'string', summary: 'device name', value: { name: 'name' } },
} as const satisfies OptionSpecs;

export async function run({ values, args, io, api, print }: Context<typeof options>): Promise<number> {
  if (args.length) throw unexpectedArgument('login', args[0]!);
  const client = api({ needToken: false });
  const { server } = client;
  // Any Postwave answer will do (a 401 problem when not logged in): a wrong URL is reported now,
  // not after minutes of waiting for a browser that shows someone else's page.
  await client.request('GET', '/api/cli/whoami', WhoAmI).catch((error: unknown) => {
    if (!(error instanceof ApiError) || error instanceof UnexpectedAnswer) throw error;
  });
  const result = await login({
    server,
    deviceName: values.device,
    openBrowser: !values['no-browser'],
    log: (line) => io.stderr(`${line}\n`),
  });
  writeConfig(io.env, { server, token: result.token, expiresAt: result.expiresAt });
  print(
    { server, expiresAt: result.expiresAt },
    `Logged in to ${server} (token valid until ${result.expiresAt}).\n`,
  );
  return 0;
}
