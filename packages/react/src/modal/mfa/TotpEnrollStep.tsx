import type { Client } from "@symbolon/core";
import { lazy, Suspense, useEffect, useState } from "react";
import { ScreenTitle } from "../ScreenTitle";
import { EnrollCodeStep } from "./EnrollCodeStep";
import { enrollErrorText } from "./enrollErrorText";
import { initMfaEnrollment, submitMfaEnrollment } from "./mfaActions";

// The QR code library loads with the authenticator-app step only.
const QrCode = lazy(() => import("../QrCode").then((module) => ({ default: module.QrCode })));

/** Props of {@link TotpEnrollStep}. */
export interface TotpEnrollStepProps {
  client: Client;
  titleId?: string | undefined;
  onDone: () => void;
  onBack: () => void;
}

/** The setup key in groups of four, easier to type by hand. */
const grouped = (secret: string) => secret.replace(/(.{4})(?=.)/g, "$1 ");

/**
 * Spec §2 authenticator-app setup: the QR code of the `otpauth://` URL and the setup key (with a copy
 * button), Continue, then a code from the app.
 */
export function TotpEnrollStep({ client, titleId, onDone, onBack }: TotpEnrollStepProps) {
  const [setup, setSetup] = useState<{ secret: string; authUrl: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const [entering, setEntering] = useState(false);

  const start = () => {
    setError(null);
    initMfaEnrollment(client, { method: "totp" }).then(
      (answer) => setSetup(answer ?? null),
      (failure: unknown) => setError(enrollErrorText(failure)),
    );
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: one secret per visit of the step.
  useEffect(start, []);

  if (entering && setup) {
    return (
      <EnrollCodeStep
        title="Enter the code from your app"
        subtitle="Enter the 6-digit code your authenticator app shows for this account."
        titleId={titleId}
        submit={async (mfaCode) => {
          await submitMfaEnrollment(client, { method: "totp", mfaCode });
          onDone();
        }}
        onBack={() => setEntering(false)}
      />
    );
  }
  return (
    <div className="symbolon-form">
      <ScreenTitle id={titleId} focus>
        Set up your authenticator app
      </ScreenTitle>
      <p className="symbolon-subtitle">
        Scan the QR code with your authenticator app, or enter the setup key by hand.
      </p>
      {error && (
        <>
          <p className="symbolon-alert" role="alert">
            {error}
          </p>
          <button type="button" className="symbolon-button" onClick={start}>
            Try again
          </button>
        </>
      )}
      {!error && !setup && (
        <p className="symbolon-status" role="status">
          Preparing your setup key…
        </p>
      )}
      {setup && (
        <>
          <div className="symbolon-qr">
            <Suspense fallback={null}>
              <QrCode value={setup.authUrl} label="Authenticator app QR code" size={176} />
            </Suspense>
          </div>
          <span className="symbolon-label">Setup key</span>
          <div className="symbolon-setup-key">
            <code data-testid="totp-setup-key">{grouped(setup.secret)}</code>
            <button
              type="button"
              className="symbolon-secondary symbolon-small"
              aria-label="Copy setup key"
              onClick={() =>
                void navigator.clipboard?.writeText(setup.secret).then(
                  () => setCopied(true),
                  () => setCopied(false),
                )
              }
            >
              {copied ? "Copied" : "Copy"}
            </button>
          </div>
          <p className="symbolon-status" role="status">
            {copied ? "Setup key copied" : ""}
          </p>
          <button type="button" className="symbolon-button" onClick={() => setEntering(true)}>
            Continue
          </button>
        </>
      )}
      <button type="button" className="symbolon-link" onClick={onBack}>
        Back
      </button>
    </div>
  );
}
