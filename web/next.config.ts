import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // The SDK ships TypeScript sources with `.ts` import specifiers.
  transpilePackages: ['@postwave/shared'],
  // Native/wasm packages load their own files at run time: keep them out of the bundle.
  serverExternalPackages: ['@electric-sql/pglite', 'pg', 'pino', 'multer', 'nodemailer', 'prom-client'],
  poweredByHeader: false,
  // `npm run typecheck` checks web/ (tests included) with tsc; the build need not repeat it.
  typescript: { ignoreBuildErrors: true },
  // Pages link app/icon.svg; tools and old browsers still ask for /favicon.ico, which must not 404.
  async rewrites() {
    return [{ source: '/favicon.ico', destination: '/icon.svg' }];
  },
};

export default nextConfig;
