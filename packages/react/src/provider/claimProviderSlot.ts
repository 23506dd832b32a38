/** The error thrown when a second provider mounts (spec §5). */
export const ONLY_ONE_PROVIDER_MESSAGE =
  "Only one PrivyProvider may be mounted at a time; remove the extra provider.";

let mounted = 0;

/** Claims the single provider slot; returns the release function or throws when it is taken. */
export function claimProviderSlot(): () => void {
  if (mounted > 0) throw new Error(ONLY_ONE_PROVIDER_MESSAGE);
  mounted += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    mounted -= 1;
  };
}
