export default function Home() {
  return (
    <main>
      <h1>Postwave Scheduler</h1>
      <p>
        <a href="/api/auth/signin">Sign in</a>
      </p>
    </main>
  );
}
