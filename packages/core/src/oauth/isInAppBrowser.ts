/**
 * Markers of embedded webviews in user agents: Google refuses OAuth in them (its "use secure
 * browsers" rule), so the flow stops with the spec §8 in-app-browser message instead.
 */
const IN_APP_MARKERS = [
  /\bFBAN\b|\bFBAV\b|\bFB_IAB\b/, // Facebook, Messenger
  /\bInstagram\b/,
  /\bLine\//,
  /\bMicroMessenger\b/, // WeChat
  /\bTwitter\b/,
  /\bLinkedInApp\b/,
  /\bSnapchat\b/,
  /\bTikTok\b|\bmusical_ly\b|\bBytedanceWebview\b/,
  /\bPinterest\b/,
  /\bGSA\//, // the Google app's webview
  /; wv\)/, // Android WebView
  /\bTelegram\b/,
  /\bDiscord\b/,
];

/** Whether `userAgent` is an embedded (in-app) browser. Default: this browser's. */
export function isInAppBrowser(userAgent?: string): boolean {
  const ua = userAgent ?? (typeof navigator === "undefined" ? "" : navigator.userAgent);
  if (IN_APP_MARKERS.some((marker) => marker.test(ua))) return true;
  // iOS webviews (WKWebView) have the Mobile token but, unlike Safari, no "Safari/" token.
  return /\(i(Phone|Pod|Pad);/.test(ua) && /Mobile\//.test(ua) && !/Safari\//.test(ua);
}
