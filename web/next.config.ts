import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // The SDK ships TypeScript sources with `.ts` import specifiers.
  transpilePackages: ['@postwave/shared'],
  // Native/wasm packages load their own files at run time: keep them out of the bundle.
  serverExternalPackages: ['@electric-sql/pglite', 'pg', 'pino', 'multer', 'nodemailer', 'prom-client'],
  poweredByHeader: false,
  // `npm run typecheck` checks web/ (tests included) with tsc; the build need not repeat it.
  typescript: { ignoreBuildErrors: true },
};

export default nextConfig;
