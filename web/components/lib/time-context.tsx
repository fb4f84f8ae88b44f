'use client';

import { createContext, type ReactNode, useContext } from 'react';
import { fallbackLocale } from './time.ts';

/** The signed-in person's time zone (profile) and locale (Accept-Language), set by the app layout. */
export interface TimeSettings {
  timeZone: string;
  locale: string;
}

const TimeContext = createContext<TimeSettings>({ timeZone: 'UTC', locale: fallbackLocale });

export function TimeProvider({ value, children }: { value: TimeSettings; children: ReactNode }) {
  return <TimeContext.Provider value={value}>{children}</TimeContext.Provider>;
}

/** For client components: format with components/lib/time.ts and these, never the browser's own zone. */
export function useTimeSettings(): TimeSettings {
  return useContext(TimeContext);
}
