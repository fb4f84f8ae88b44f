import { problemResponses } from '@postwave/shared/openapi/index';
import { z } from 'zod';
import { json } from '#server/api/common.ts';
import { defineApiRoutes } from '#server/http/route.ts';
import { PasswordResetConfirm, PasswordResetRequest } from './password-reset.ts';
import { SignupRequest, SignupResponse } from './schema.ts';

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
      202: { description: 'Accepted.', content: { [json]: z.object({ message: z.string() }) } },
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
