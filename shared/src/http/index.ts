export * from './address-policy.ts';
export * from './capped-body.ts';
export * from './fetch.ts';
export * from './fetch-like.ts';
export * from './json-input.ts';
export * from './remote-text.ts';
export * from './safe-fetch.ts';
export * from './security-headers.ts';
