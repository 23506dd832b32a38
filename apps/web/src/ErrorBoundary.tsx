import { Component, type ReactNode } from "react";
import { StartupError } from "./StartupError";

/** Shows render-time configuration errors (e.g. a bad app id) instead of a blank page. */
export class ErrorBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  state = { error: null as unknown };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  render() {
    return this.state.error ? <StartupError error={this.state.error} /> : this.props.children;
  }
}
