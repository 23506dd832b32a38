/** Length of an app id (spec §5, §9). */
export const APP_ID_LENGTH = 25;

/** Throws unless `appId` is a string of exactly 25 characters (spec §5). */
export function assertAppId(appId: unknown): asserts appId is string {
  if (typeof appId !== "string") {
    throw new Error(
      `PrivyProvider: appId must be a string of ${APP_ID_LENGTH} characters; got ${typeof appId}.`,
    );
  }
  if (appId.length !== APP_ID_LENGTH) {
    throw new Error(
      `PrivyProvider: appId must be exactly ${APP_ID_LENGTH} characters long; got ${appId.length} ("${appId}").`,
    );
  }
}
