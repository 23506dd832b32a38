import { useContext } from "react";
import { PrivyContext, type PrivyContextValue } from "./PrivyContext";

/** The provider's context; throws a clear error when used outside `PrivyProvider`. */
export function usePrivyContext(hookName: string): PrivyContextValue {
  const value = useContext(PrivyContext);
  if (!value) throw new Error(`${hookName} must be used within a PrivyProvider.`);
  return value;
}
