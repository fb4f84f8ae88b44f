// Runs before `npm start` and `npm test` (the pre-scripts in package.json) on whatever Node is on
// the PATH, so it is plain CommonJS any Node version parses. An older Node would otherwise fail
// deep inside with ERR_UNKNOWN_FILE_EXTENSION ".ts": say in one line what is needed instead.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const engines = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).engines.node;

/** The major version `engines.node` (">=24") asks for. */
function requiredMajor() {
  return Number(/(\d+)/.exec(engines)[1]);
}

/** The one-line complaint for a Node version older than required, or undefined when it will do. */
function complaint(version) {
  const major = Number(String(version).replace(/^v/, '').split('.')[0]);
  if (major >= requiredMajor()) return undefined;
  return (
    'Postwave needs Node.js ' +
    requiredMajor() +
    ' or newer; this is Node.js ' +
    String(version).replace(/^v/, '') +
    '. Install it with `nvm install` (reads .nvmrc) or from https://nodejs.org, then run the command again.'
  );
}

module.exports = { complaint: complaint, requiredMajor: requiredMajor };

if (require.main === module) {
  const message = complaint(process.versions.node);
  if (message) {
    process.stderr.write(message + '\n');
    process.exit(1);
  }
}
