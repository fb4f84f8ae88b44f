import packageJson from '../package.json' with { type: 'json' };

/** The CLI's version, from its package.json (inlined into the bundle at build time). */
export const version: string = packageJson.version;
