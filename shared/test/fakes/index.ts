export * from './bluesky.ts';
export * from './discord.ts';
export * from './fake-server.ts';
export * from './mastodon.ts';
export * from './s3.ts';
export * from './sample-media.ts';
export * from './telegram.ts';
export * from './youtube.ts';
