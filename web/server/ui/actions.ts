'use server';

import { ProblemError } from '@postwave/shared';
import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { AuthError } from 'next-auth';
import { signIn, signOut } from '#server/auth/next-auth.ts';
import { returnPath } from '#server/auth/return-path.ts';
import { getConfig, getContext } from '#server/context.ts';
import { sendVerificationLink } from '#server/users/email-verification.ts';
import { configuredProviders } from '#server/users/providers.ts';
import { signUp } from '#server/users/sign-up.ts';
import { updateProfile } from '#server/users/update-profile.ts';
import { canonicalTimeZone } from '../../components/lib/time.ts';
import type { FormState } from './schema.ts';
import { requireUser } from './session.ts';

const field = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
};

/** Where to go after signing in: only a path on this site (server/auth/return-path.ts). */
function safeNext(value: string): string {
  return returnPath(value, getConfig().appUrl) ?? '/compose';
}

export async function signInAction(_state: FormState, form: FormData): Promise<FormState> {
  const email = field(form, 'email').trim();
  const password = field(form, 'password');
  if (!email || !password) return { error: 'Enter your email and password.' };
  try {
    await signIn('credentials', { email, password, redirectTo: safeNext(field(form, 'next')) });
  } catch (error) {
    if (error instanceof AuthError) return { error: 'That email and password do not match an account.' };
    throw error;
  }
  return {};
}

export async function signUpAction(_state: FormState, form: FormData): Promise<FormState> {
  const email = field(form, 'email').trim();
  const password = field(form, 'password');
  const name = field(form, 'name').trim();
  const timezone = canonicalTimeZone(field(form, 'timezone'));
  const ctx = await getContext();
  try {
    const user = await signUp(ctx, { email, password, ...(name ? { name } : {}) });
    // Someone signing up from an invitation comes back to it once the address is confirmed.
    await sendVerificationLink(ctx, user.id, returnPath(field(form, 'next'), ctx.config.appUrl));
    if (timezone) await updateProfile(ctx, user.id, { timezone });
  } catch (error) {
    if (error instanceof ProblemError) {
      const body = error.problem;
      if (body.code === 'email_taken') {
        return { fieldErrors: { email: 'An account with this email already exists. Sign in instead?' } };
      }
      const fieldErrors: Record<string, string> = {};
      for (const issue of body.errors ?? []) if (issue.path) fieldErrors[issue.path] = issue.message;
      return { error: body.detail ?? body.title, fieldErrors };
    }
    throw error;
  }
  // Through an invitation (/invite/{token}) the new person goes back to accept it.
  const next = field(form, 'next');
  await signIn('credentials', { email, password, redirectTo: next ? safeNext(next) : '/accounts?welcome=1' });
  return {};
}

export async function signOutAction(): Promise<void> {
  await signOut({ redirectTo: '/signin' });
}

export async function updateProfileAction(_state: FormState, form: FormData): Promise<FormState> {
  const user = await requireUser();
  const name = field(form, 'name').trim().slice(0, 200);
  const timezone = canonicalTimeZone(field(form, 'timezone'));
  if (!timezone) return { fieldErrors: { timezone: 'Choose a time zone from the list.' } };
  const ctx = await getContext();
  await updateProfile(ctx, user.id, { name: name || null, timezone });
  revalidatePath('/', 'layout');
  return { ok: 'Profile saved.' };
}

/**
 * "Send a new link" (at most three links per 15 minutes), on the banner and the invitation page. A
 * `next` path (the invitation) goes along in the link and is where the person stays meanwhile.
 */
export async function resendVerificationAction(form?: FormData): Promise<void> {
  const user = await requireUser();
  if (user.emailVerified) return;
  const ctx = await getContext();
  const next = form ? returnPath(field(form, 'next'), ctx.config.appUrl) : undefined;
  // Refused when asked for too often: the page then says so instead of claiming a new link went out.
  const outcome = (await sendVerificationLink(ctx, user.id, next)) ? 'sent' : 'wait';
  redirect(`${next ?? '/settings'}${next?.includes('?') ? '&' : '?'}verification=${outcome}`);
}

/** "Continue with GitHub/Google" on the sign-in page. */
export async function providerSignInAction(form: FormData): Promise<void> {
  const provider = field(form, 'provider');
  const ctx = await getContext();
  if (!configuredProviders(ctx.config).some((p) => p.id === provider)) redirect('/signin');
  await signIn(provider, { redirectTo: safeNext(field(form, 'next')) });
}
