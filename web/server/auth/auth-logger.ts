import type { NextAuthConfig } from 'next-auth';
import { getContext } from '#server/context.ts';

/**
 * Auth.js logs through the app's logger. A refused password is an everyday event, not a fault: it
 * is one info line (`sign_in_refused`), never Auth.js's `[auth][error] CredentialsSignin` with its
 * stack trace (issue 30). Other Auth.js errors stay errors, serialized by the app logger (which
 * redacts secrets). The class is matched by its `type` because each Next bundle has its own copy.
 */
export const authLogger: NonNullable<NextAuthConfig['logger']> = {
  error(error) {
    const type = (error as { type?: string }).type ?? error.name;
    void getContext().then(({ logger }) => {
      if (type === 'CredentialsSignin') {
        logger.info(
          { event: 'sign_in_refused' },
          'Sign-in refused: the e-mail and password match no account',
        );
      } else {
        logger.error({ err: error, event: 'auth_error', type }, `Sign-in error: ${type}`);
      }
    });
  },
  warn(code) {
    void getContext().then(({ logger }) => logger.warn({ event: 'auth_warning', code }, `Auth.js: ${code}`));
  },
  debug() {},
};
