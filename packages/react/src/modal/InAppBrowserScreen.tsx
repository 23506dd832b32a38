import { IN_APP_BROWSER_MESSAGE } from "@symbolon/core";
import { ScreenTitle } from "./ScreenTitle";

/** Props of {@link InAppBrowserScreen}. */
export interface InAppBrowserScreenProps {
  /** The provider's display name ("Google"). */
  provider: string;
  onBack: () => void;
  titleId?: string | undefined;
}

/**
 * Spec §2 "In-app-browser error": the provider refuses embedded browsers (Google's rule), so the
 * person is told to open the page in their browser, or to choose another way in. Loaded lazily.
 */
export default function InAppBrowserScreen({ provider, onBack, titleId }: InAppBrowserScreenProps) {
  return (
    <div className="symbolon-form">
      <ScreenTitle id={titleId} focus>
        Could not log in with {provider}
      </ScreenTitle>
      <p className="symbolon-subtitle" role="alert">
        {IN_APP_BROWSER_MESSAGE}
      </p>
      <button type="button" className="symbolon-button" onClick={onBack}>
        Choose another way
      </button>
    </div>
  );
}
