import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * A real WordPress for tests: Debian's `wordpress` package served by PHP's built-in server, on a
 * fresh MariaDB database, installed without a browser (`wp_install()` from PHP), with users of
 * several roles and an application password each. Torn down by `stop()`: server, database, files.
 *
 * Needs `php-cli`, `php-mysql`, `php-gd`, `wordpress` and a MariaDB or MySQL server (`.ci/run`
 * installs and starts them). Settings: WORDPRESS_DIR (default /usr/share/wordpress),
 * WORDPRESS_TEST_DB_HOST, _PORT, _USER, _PASSWORD (default 127.0.0.1, 3306, root, empty).
 */

const run = promisify(execFile);

export interface RealWordPress {
  url: string;
  version: string;
  /** Application passwords by user name (`admin`, `author`, `contributor`). */
  passwords: Record<string, string>;
  stop(): Promise<void>;
}

const database = {
  host: process.env.WORDPRESS_TEST_DB_HOST ?? '127.0.0.1',
  port: process.env.WORDPRESS_TEST_DB_PORT ?? '3306',
  user: process.env.WORDPRESS_TEST_DB_USER ?? 'root',
  password: process.env.WORDPRESS_TEST_DB_PASSWORD ?? '',
};
const wordpressDir = process.env.WORDPRESS_DIR ?? '/usr/share/wordpress';

/** Why a real WordPress cannot run here (the test is then skipped with this), or undefined. */
export async function realWordPressMissing(): Promise<string | undefined> {
  const install = 'apt-get install -y php-cli php-mysql php-gd wordpress mariadb-server';
  try {
    const { stdout } = await run('php', ['-m']);
    if (!/^mysqli$/m.test(stdout)) return `PHP has no mysqli extension (${install})`;
  } catch {
    return `php is not installed (${install})`;
  }
  if (!existsSync(join(wordpressDir, 'wp-settings.php')))
    return `WordPress is not installed at ${wordpressDir} (${install})`;
  const php = `$db = @new mysqli(${phpString(database.host)}, ${phpString(database.user)}, ${phpString(database.password)}, '', ${Number(database.port)}); echo $db->connect_errno ? $db->connect_error : 'ok';`;
  const { stdout } = await run('php', ['-r', php]).catch((error: { stdout?: string }) => ({
    stdout: error.stdout ?? 'failed',
  }));
  if (stdout.trim() !== 'ok') {
    return `no MariaDB/MySQL at ${database.host}:${database.port} as ${database.user} (${stdout.trim()}); start one or set WORDPRESS_TEST_DB_*`;
  }
  return undefined;
}

const phpString = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Installs and serves a fresh WordPress; `plainPermalinks` leaves `/wp-json` unrouted. */
export async function startRealWordPress(
  options: { plainPermalinks?: boolean } = {},
): Promise<RealWordPress> {
  const dir = await mkdtemp(join(tmpdir(), 'postwave-wordpress-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dbName = `postwave_wp_${randomBytes(5).toString('hex')}`;
  await layOut(dir, url, dbName);
  let server: ChildProcess | undefined;
  const stop = async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    await run('php', ['-r', `${connect()} $db->query('DROP DATABASE IF EXISTS \`${dbName}\`');`]).catch(
      () => {},
    );
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const { stdout } = await run(
      'php',
      [join(dir, 'install.php'), options.plainPermalinks ? 'plain' : 'pretty'],
      {
        cwd: dir,
        timeout: 120_000,
      },
    );
    const installed = JSON.parse(stdout.slice(stdout.indexOf('{'))) as Omit<RealWordPress, 'url' | 'stop'>;
    server = spawn('php', ['-S', `127.0.0.1:${port}`, '-t', dir, join(dir, 'router.php')], {
      cwd: dir,
      env: { ...process.env, PHP_CLI_SERVER_WORKERS: '2' },
      stdio: 'ignore',
    });
    await waitForServer(url);
    return { ...installed, url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function waitForServer(url: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await fetch(`${url}/?rest_route=/`);
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

const connect = () =>
  `$db = new mysqli(${phpString(database.host)}, ${phpString(database.user)}, ${phpString(database.password)}, '', ${Number(database.port)});`;

/**
 * The site's own document root: links to the packaged WordPress files, its own wp-config.php
 * (Debian's looks in /etc/wordpress), a writable wp-content, a router and the installer.
 */
async function layOut(dir: string, url: string, dbName: string): Promise<void> {
  for (const entry of await readdir(wordpressDir)) {
    if (entry === 'wp-config.php' || entry === 'wp-content' || entry.startsWith('.')) continue;
    await symlink(join(wordpressDir, entry), join(dir, entry));
  }
  await mkdir(join(dir, 'wp-content', 'uploads'), { recursive: true });
  for (const entry of ['themes', 'plugins', 'languages']) {
    const source = join(wordpressDir, 'wp-content', entry);
    if (existsSync(source)) await symlink(source, join(dir, 'wp-content', entry));
  }
  const key = () => phpString(randomBytes(32).toString('hex'));
  const config = `<?php
define('DB_NAME', '${dbName}');
define('DB_USER', ${phpString(database.user)});
define('DB_PASSWORD', ${phpString(database.password)});
define('DB_HOST', ${phpString(`${database.host}:${database.port}`)});
define('DB_CHARSET', 'utf8mb4');
define('DB_COLLATE', '');
${['AUTH_KEY', 'SECURE_AUTH_KEY', 'LOGGED_IN_KEY', 'NONCE_KEY', 'AUTH_SALT', 'SECURE_AUTH_SALT', 'LOGGED_IN_SALT', 'NONCE_SALT'].map((name) => `define('${name}', ${key()});`).join('\n')}
$table_prefix = 'wp_';
define('WP_HOME', '${url}');
define('WP_SITEURL', '${url}');
// Application passwords need HTTPS unless the site says it is a local one.
define('WP_ENVIRONMENT_TYPE', 'local');
define('WP_CONTENT_DIR', __DIR__ . '/wp-content');
define('WP_CONTENT_URL', '${url}/wp-content');
define('WP_HTTP_BLOCK_EXTERNAL', true);
define('DISABLE_WP_CRON', true);
define('AUTOMATIC_UPDATER_DISABLED', true);
define('WP_DEBUG', false);
if (!defined('ABSPATH')) define('ABSPATH', __DIR__ . '/');
require_once ABSPATH . 'wp-settings.php';
`;
  await writeFile(join(dir, 'wp-config.php'), config);
  await writeFile(join(dir, 'router.php'), router);
  await writeFile(join(dir, 'install.php'), installer(dbName, new URL(url).host));
}

/** PHP's built-in server: static files as they are, PHP files run, everything else to index.php. */
const router = `<?php
define('ABSPATH', __DIR__ . '/');
$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
$file = realpath(__DIR__ . $path);
if ($path !== '/' && $file !== false && is_file($file) && substr($file, -4) !== '.php') return false;
$script = ($file !== false && is_file($file) && substr($file, -4) === '.php') ? $path : '/index.php';
$_SERVER['SCRIPT_NAME'] = $script;
$_SERVER['PHP_SELF'] = $script;
$_SERVER['SCRIPT_FILENAME'] = __DIR__ . $script;
chdir(dirname(__DIR__ . $script));
require __DIR__ . $script;
`;

const installer = (dbName: string, host: string) => `<?php
${connect()}
$db->query('CREATE DATABASE \`${dbName}\` CHARACTER SET utf8mb4');
define('WP_INSTALLING', true);
define('ABSPATH', __DIR__ . '/');
$_SERVER['HTTP_HOST'] = '${host}';
$_SERVER['REQUEST_URI'] = '/';
require ABSPATH . 'wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
wp_install('Postwave Test Blog', 'admin', 'admin@example.test', false, '', wp_generate_password(24));
$wp_rewrite->set_permalink_structure(($argv[1] ?? 'pretty') === 'plain' ? '' : '/%postname%/');
flush_rewrite_rules(false);
$passwords = [];
foreach (['admin' => 'administrator', 'author' => 'author', 'contributor' => 'contributor'] as $login => $role) {
  $id = $login === 'admin' ? 1 : wp_insert_user(['user_login' => $login, 'user_email' => "$login@example.test", 'user_pass' => wp_generate_password(24), 'role' => $role, 'display_name' => ucfirst($login)]);
  [$password] = WP_Application_Passwords::create_new_application_password($id, ['name' => 'Postwave']);
  $passwords[$login] = WP_Application_Passwords::chunk_password($password);
}
echo json_encode(['version' => get_bloginfo('version'), 'passwords' => $passwords]);
`;
