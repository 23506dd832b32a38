import type { User } from "@symbolon/core";
import type { AccountKind } from "./flows/signInTypes";

/** Titles and lines of the link and update screens (spec §2 for the update ones, word for word). */
export const ACCOUNT_TEXTS = {
  link: {
    email: {
      title: "Add your email",
      subtitle: "Enter the email address to add. We'll send you a confirmation code",
    },
    phone: {
      title: "Add your phone number",
      subtitle: "Enter the phone number to add. We'll send you a confirmation code",
    },
  },
  update: {
    email: {
      title: "Update your email",
      subtitle: "Add the email address you'd like to use going forward. We'll send you a confirmation code",
    },
    phone: {
      title: "Update your phone number",
      subtitle: "Add the phone number you'd like to use going forward. We'll send you a confirmation code",
    },
  },
} as const;

/** Spec §5: an update needs an account of that kind already. */
export const UPDATE_NEEDS: Record<AccountKind, string> = {
  email: "User is required to have an email address to update it.",
  phone: "User is required to have an phone number to update it.",
};

/** The user's current email address or phone number, if any. */
export function currentAccount(user: User | null, kind: AccountKind): string | null {
  for (const account of user?.linked_accounts ?? []) {
    const fields = account as unknown as Record<string, unknown>;
    if (kind === "email" && account.type === "email" && typeof fields.address === "string")
      return fields.address;
    if (kind === "phone" && account.type === "phone") {
      const number = fields.phoneNumber ?? fields.phone_number ?? fields.number;
      if (typeof number === "string") return number;
    }
  }
  return null;
}
