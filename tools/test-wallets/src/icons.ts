// Small SVG icons as data URIs (EIP-6963 and Wallet Standard both want a data URI).
const svg = (body: string) =>
  `data:image/svg+xml;base64,${btoa(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">${body}</svg>`)}`;

export const ETHEREUM_ICON = svg(
  '<rect width="32" height="32" rx="8" fill="#1f6feb"/><path d="M16 5l-7 11 7 4 7-4z" fill="#fff"/><path d="M16 22l-7-4 7 9 7-9z" fill="#cde"/>',
) as `data:image/svg+xml;base64,${string}`;

export const SOLANA_ICON = svg(
  '<rect width="32" height="32" rx="8" fill="#7c3aed"/><path d="M9 10h14l-3 3H6zM9 17h14l-3 3H6zM12 13.5h14l-3 3H9z" fill="#fff"/>',
) as `data:image/svg+xml;base64,${string}`;
