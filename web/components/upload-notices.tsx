'use client';

import { useEffect, useState } from 'react';
import { Icon } from './icons.tsx';

/**
 * Notices about how an upload went that the user must not miss (the direct upload was blocked
 * and the file went through the server instead). The upload code reports them with
 * `reportUploadNotice`; the app layout shows them in a polite live region, so screen readers
 * announce them too.
 */

const eventName = 'postwave:upload-notice';

export function reportUploadNotice(message: string): void {
  console.warn(`[upload] ${message}`);
  if (typeof window !== 'undefined') window.dispatchEvent(new CustomEvent(eventName, { detail: message }));
}

export function UploadNotices() {
  const [messages, setMessages] = useState<string[]>([]);
  useEffect(() => {
    const onNotice = (event: Event) => {
      const message = String((event as CustomEvent<string>).detail);
      setMessages((current) => (current.includes(message) ? current : [...current, message]));
    };
    window.addEventListener(eventName, onNotice);
    return () => window.removeEventListener(eventName, onNotice);
  }, []);
  return (
    // aria-live without role="status": an always-present status region would be one more "status" for
    // every page, where pages already use role="status" for their own confirmations.
    <div aria-live="polite" className="upload-notices" data-testid="upload-notices">
      {messages.map((message) => (
        <div key={message} className="alert alert-warn upload-notice">
          <p>
            <Icon name="warning" size={16} /> {message}
          </p>
          <button
            type="button"
            className="btn btn-sm btn-ghost"
            onClick={() => setMessages((current) => current.filter((m) => m !== message))}
          >
            Dismiss
          </button>
        </div>
      ))}
    </div>
  );
}
