/** Rate limits for benchmark stacks: far above any load they generate, so limits never cap what is measured. */
export const unlimited = {
  emailPerWindow: 1_000_000,
  ipPerWindow: 10_000_000,
  smsIpPerWindow: 10_000_000,
  windowS: 60,
  resendCooldownS: 0,
  ipAuthenticatePerWindow: 10_000_000,
  codeFailuresPerAddress: 10_000_000,
};
