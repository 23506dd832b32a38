/** Shown instead of the app when it cannot start (bad environment, bad configuration). */
export function StartupError({ error }: { error: unknown }) {
  const message = error instanceof Error ? error.message : String(error);
  return (
    <main className="startup-error" role="alert">
      <h1>Symbolon cannot start</h1>
      <pre>{message}</pre>
      <p>Fix the configuration (see apps/web/.env.example) and reload the page.</p>
    </main>
  );
}
