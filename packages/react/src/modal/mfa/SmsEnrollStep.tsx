import type { Client } from "@symbolon/core";
import { Suspense, useState } from "react";
import { PhoneForm } from "../lazyScreens";
import { ScreenTitle } from "../ScreenTitle";
import { EnrollCodeStep } from "./EnrollCodeStep";
import { initMfaEnrollment, submitMfaEnrollment } from "./mfaActions";

/** Props of {@link SmsEnrollStep}. */
export interface SmsEnrollStepProps {
  client: Client;
  titleId?: string | undefined;
  onDone: () => void;
  onBack: () => void;
}

/** Spec §2 SMS setup: the phone number, then the 6-digit code texted to it (then done). */
export function SmsEnrollStep({ client, titleId, onDone, onBack }: SmsEnrollStepProps) {
  const [phoneNumber, setPhoneNumber] = useState<string | null>(null);
  if (phoneNumber !== null) {
    return (
      <EnrollCodeStep
        title="Enter the code"
        subtitle={`Enter the 6-digit code we sent to ${phoneNumber}.`}
        titleId={titleId}
        submit={async (mfaCode) => {
          await submitMfaEnrollment(client, { method: "sms", phoneNumber, mfaCode });
          onDone();
        }}
        onBack={() => setPhoneNumber(null)}
      />
    );
  }
  return (
    <>
      <ScreenTitle id={titleId}>Set up SMS verification</ScreenTitle>
      <p className="symbolon-subtitle">Enter the phone number to text your verification codes to.</p>
      <Suspense fallback={null}>
        <PhoneForm
          client={client}
          via={async (number: string) => {
            await initMfaEnrollment(client, { method: "sms", phoneNumber: number });
            setPhoneNumber(number);
          }}
        />
      </Suspense>
      <button type="button" className="symbolon-link" onClick={onBack}>
        Back
      </button>
    </>
  );
}
