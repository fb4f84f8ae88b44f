import { problemResponses } from '@postwave/shared/openapi/index';
import { z } from 'zod';
import { json } from '#server/api/common.ts';
import { defineApiRoutes } from '#server/http/route.ts';
import { PasswordResetConfirm, PasswordResetRequest } from './password-reset.ts';
import { SignInMethods, SignupRequest, SignupResponse, VerifyEmailRequest } from './schema.ts';

const Message = z.object({ message: z.string() });
const providerParam = {
  name: 'provider',
  in: 'path' as const,
  description: 'A configured sign-in provider id (github, google).',
  schema: z.string(),
};

export const usersRoutes = defineApiRoutes({
  signUp: {
    method: 'post',
    path: '/api/auth/signup',
    auth: 'public',
    operationId: 'signUp',
    summary: 'Create a user with email and password; sets the session cookie',
    requestBody: { content: { [json]: SignupRequest } },
    responses: {
      201: { description: 'Created; `Set-Cookie` carries the session.', content: { [json]: SignupResponse } },
      ...problemResponses({
        invalid_request: 'wrong types',
        email_taken: 'the email is registered',
        validation_failed: 'password under 10 characters or malformed email',
        forbidden: 'a cross-site form',
      }),
    },
  },
  requestPasswordReset: {
    method: 'post',
    path: '/api/auth/password-reset',
    auth: 'public',
    operationId: 'requestPasswordReset',
    summary: 'Send a password reset link (the same answer whether or not the email is known)',
    requestBody: { content: { [json]: PasswordResetRequest } },
    responses: {
      202: { description: 'Accepted.', content: { [json]: Message } },
      ...problemResponses({ invalid_request: 'wrong types', rate_limited: 'too many requests' }),
    },
  },
  confirmPasswordReset: {
    method: 'post',
    path: '/api/auth/password-reset/confirm',
    auth: 'public',
    operationId: 'confirmPasswordReset',
    summary: 'Set a new password with a reset link’s token; older sessions end',
    requestBody: { content: { [json]: PasswordResetConfirm } },
    responses: {
      204: { description: 'Password changed.' },
      ...problemResponses({
        invalid_request: 'wrong types',
        validation_failed: 'the link is invalid, used or expired, or the password is too short',
      }),
    },
  },
  verifyEmail: {
    method: 'post',
    path: '/api/auth/verify-email',
    auth: 'public',
    operationId: 'verifyEmail',
    summary:
      'Use an e-mail verification link (`{ token }`); a form post is answered with a redirect to /verify-email',
    requestBody: { content: { [json]: VerifyEmailRequest } },
    responses: {
      204: { description: 'Verified.' },
      ...problemResponses({
        invalid_request: 'wrong types',
        validation_failed: '`invalid_verification_token`: unknown, expired or used link',
      }),
    },
  },
  resendVerificationEmail: {
    method: 'post',
    path: '/api/auth/verify-email/resend',
    auth: 'session',
    permission: 'self',
    operationId: 'resendVerificationEmail',
    summary:
      'Send a new verification link to the signed-in user (browser session; at most three per 15 minutes)',
    responses: {
      202: { description: 'Sent unless verified already or asked too often.', content: { [json]: Message } },
      ...problemResponses({ unauthorized: 'no session', forbidden: 'not a same-origin browser session' }),
    },
  },
  listSignInMethods: {
    method: 'get',
    path: '/api/auth/sign-in-methods',
    auth: 'session',
    permission: 'self',
    operationId: 'listSignInMethods',
    summary:
      'How the signed-in user can sign in (password, linked GitHub/Google) and which providers are configured',
    responses: {
      200: { description: 'Sign-in methods.', content: { [json]: SignInMethods } },
      ...problemResponses({ unauthorized: 'no session', forbidden: 'a bearer token instead of a session' }),
    },
  },
  linkSignInMethod: {
    method: 'post',
    path: '/api/auth/sign-in-methods/{provider}',
    auth: 'session',
    permission: 'self',
    operationId: 'linkSignInMethod',
    summary:
      'Start linking a provider to the signed-in user: 303 to the provider; its callback links the identity to this user only. Never linked by e-mail alone.',
    parameters: [providerParam],
    responses: {
      303: {
        description:
          'To the provider’s consent page; for a form post naming a known provider this server has no credentials for, to `/setup?missing={provider}`.',
      },
      ...problemResponses({
        unauthorized: 'no session',
        forbidden: 'not a same-origin browser session, or the e-mail address is not verified yet',
        not_found: 'provider not configured',
      }),
    },
  },
  unlinkSignInMethod: {
    method: 'delete',
    path: '/api/auth/sign-in-methods/{provider}',
    auth: 'session',
    permission: 'self',
    operationId: 'unlinkSignInMethod',
    summary: 'Unlink a provider; the last way to sign in cannot be removed',
    parameters: [providerParam],
    responses: {
      204: { description: 'Unlinked.' },
      ...problemResponses({
        unauthorized: 'no session',
        forbidden: 'not a same-origin browser session',
        not_found: 'that provider is not linked',
        invalid_status: 'it is the only way to sign in',
      }),
    },
  },
  nextAuthGet: {
    method: 'get',
    path: '/api/auth/{nextauth}',
    auth: 'public',
    undocumented: true,
    operationId: 'nextAuthGet',
    summary: 'Auth.js endpoints (session, CSRF token, sign-out page)',
    responses: { 200: { description: 'Auth.js' } },
  },
  nextAuthPost: {
    method: 'post',
    path: '/api/auth/{nextauth}',
    auth: 'public',
    undocumented: true,
    operationId: 'nextAuthPost',
    summary: 'Auth.js endpoints (credential sign-in, sign-out)',
    responses: { 200: { description: 'Auth.js' } },
  },
});
