import { StrictMode } from "react";
import { createRoot, type Root } from "react-dom/client";
import { App } from "./App";
import { ErrorBoundary } from "./ErrorBoundary";
import { loadEnv } from "./env";
import { StartupError } from "./StartupError";
import { applyTheme } from "./theme/applyTheme";
import { readThemePreference } from "./theme/themePreference";

/** Checks the environment and renders the app into `container`, or the start-up error. */
export function start(container: HTMLElement, runtimeEnv: Record<string, unknown>): Root {
  // Before the first render, so a stored dark theme never flashes light.
  applyTheme(readThemePreference());
  const root = createRoot(container);
  try {
    const env = loadEnv(runtimeEnv, false);
    root.render(
      <StrictMode>
        <ErrorBoundary>
          <App env={env} />
        </ErrorBoundary>
      </StrictMode>,
    );
  } catch (error) {
    root.render(<StartupError error={error} />);
  }
  return root;
}
