import type { ReactNode } from 'react';

const card = {
  maxWidth: 440,
  margin: '10vh auto',
  padding: '2rem',
  border: '1px solid #d0d7de',
  borderRadius: 12,
  fontFamily: 'system-ui, sans-serif',
  lineHeight: 1.5,
  color: '#1f2328',
  background: '#fff',
} as const;
const button = {
  font: 'inherit',
  padding: '0.55rem 1.2rem',
  borderRadius: 8,
  cursor: 'pointer',
  border: '1px solid #d0d7de',
} as const;

/** A consent card: what is asking, for whom, and Approve / Deny buttons posting `hidden` to `action`. */
export function ConsentCard(props: {
  title: string;
  action: string;
  hidden: Record<string, string>;
  signedInAs: string;
  children: ReactNode;
}) {
  return (
    <main style={card}>
      <h1 style={{ fontSize: '1.35rem', marginTop: 0 }}>{props.title}</h1>
      {props.children}
      <p style={{ color: '#59636e', fontSize: '0.9rem' }}>Signed in as {props.signedInAs}.</p>
      <form method="post" action={props.action} style={{ display: 'flex', gap: '0.75rem' }}>
        {Object.entries(props.hidden).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <button
          type="submit"
          name="decision"
          value="approve"
          style={{ ...button, background: '#1f883d', color: '#fff', borderColor: '#1a7f37' }}
        >
          Approve
        </button>
        <button type="submit" name="decision" value="deny" style={{ ...button, background: '#f6f8fa' }}>
          Deny
        </button>
      </form>
    </main>
  );
}

export function ErrorCard(props: { title: string; message: string }) {
  return (
    <main style={card} role="alert">
      <h1 style={{ fontSize: '1.35rem', marginTop: 0 }}>{props.title}</h1>
      <p>{props.message}</p>
    </main>
  );
}
