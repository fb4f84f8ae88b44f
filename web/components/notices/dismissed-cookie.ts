/**
 * The cookie that remembers a dismissed notice for a year: set by dismissible.tsx in the browser,
 * read by the server (server/ui/dismissed.ts). A plain module, so server code can call it (a
 * function exported from a 'use client' file cannot be called on the server).
 */
export const dismissedCookie = (id: string) => `pw_dismissed_${id}`;
